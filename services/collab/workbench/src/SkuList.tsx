// The page's SKUs as a virtualised list: only the rows in view are in the DOM, so a page of 800 SKUs
// scrolls as lightly as one of eight. The selected row is kept in view as J/K move through it; rows
// picked for a bulk edit are marked.
import { useEffect, useRef, useState } from "react";
import type { EditSku } from "./edits";

const ROW = 26;
const VIEW = 360;

export type Click = { index: number; toggle: boolean; range: boolean };
type Props = { skus: EditSku[]; selected: number; picked: Set<string>; onClick: (click: Click) => void };

export function SkuList({ skus, selected, picked, onClick }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const y = selected * ROW;
    if (y < el.scrollTop) el.scrollTop = y;
    else if (y + ROW > el.scrollTop + VIEW) el.scrollTop = y + ROW - VIEW;
  }, [selected]);

  const first = Math.max(0, Math.floor(top / ROW) - 5);
  const last = Math.min(skus.length, Math.ceil((top + VIEW) / ROW) + 5);
  return (
    <div ref={box} className="sku-list" style={{ height: VIEW }} data-testid="sku-list"
         onScroll={(e) => setTop((e.target as HTMLDivElement).scrollTop)}>
      <div style={{ height: skus.length * ROW, position: "relative" }}>
        {skus.slice(first, last).map((sku, n) => {
          const i = first + n;
          return (
            <div key={sku.key} data-testid="sku-row" style={{ top: i * ROW, height: ROW }}
                 className={["row", i === selected && "selected", picked.has(sku.key) && "picked"].filter(Boolean).join(" ")}
                 onClick={(e) => onClick({ index: i, toggle: e.ctrlKey || e.metaKey, range: e.shiftKey })}>
              <span className="n">{i + 1}</span>
              <span className="m">{sku.attributes.model || sku.attributes.product_name || "—"}</span>
              <span className="p">{sku.attributes.price ?? ""}</span>
              <span className="i">{sku.image_id ? "▣" : sku.candidates.length ? "?" : ""}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
