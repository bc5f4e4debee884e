// The page picture with every SKU box, image box and text block drawn over it, on one canvas: 800 boxes are 800
// rectangles drawn in one pass, not 800 DOM nodes. The canvas sits in a scrolled viewport, so the page
// can be zoomed (Ctrl+wheel at the pointer, +/-) and panned (drag where no box is, or scroll).
// Click a box to select its SKU, Shift+drag to pick every SKU in an area; in a drawing mode, drag to
// draw a box (in PDF points, as the API speaks). A table being laid out is drawn with its column
// boundaries, which are dragged to move them and double-clicked to add or remove one.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { BBox, Image } from "./api";
import type { EditSku } from "./edits";
import type { TableDraft, TableRow } from "./table";

export type Mode = "sku" | "image" | "table" | null;
type Props = {
  picture: string; pageSize: [number, number]; skus: EditSku[]; images: Image[]; blocks: { bbox: BBox }[];
  selected: number; picked: Set<string>; mode: Mode; zoom: number; table: TableDraft | null; tableRows: TableRow[];
  onZoom: (zoom: number) => void; onSelect: (index: number) => void; onDrawn: (bbox: BBox) => void;
  onPick: (keys: string[]) => void; onCuts: (cuts: number[]) => void;
};

export const WIDTH = 760;
export const ZOOMS = [0.5, 0.75, 1, 1.5, 2, 3, 4];
const GRAB = 5;  // pixels either side of a column boundary that take hold of it

type Drag =
  | { kind: "box" | "pick"; x0: number; y0: number; x1: number; y1: number }
  | { kind: "cut"; index: number }
  | { kind: "pan"; x: number; y: number; left: number; top: number };

export function zoomed(zoom: number, step: 1 | -1): number {
  const i = ZOOMS.findIndex((z) => z >= zoom);
  return ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (i < 0 ? ZOOMS.length - 1 : i) + step))];
}

export function PageCanvas(props: Props) {
  const { picture, pageSize, skus, images, blocks, selected, picked, mode, zoom, table, tableRows, onZoom } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ px: number; py: number; sx: number; sy: number } | null>(null);
  const shownZoom = useRef(zoom);
  const [bitmap, setBitmap] = useState<HTMLImageElement | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const scale = (WIDTH * zoom) / pageSize[0];
  const width = Math.round(WIDTH * zoom);
  const height = Math.round(pageSize[1] * scale);

  useEffect(() => {
    const img = new window.Image();
    img.onload = () => setBitmap(img);
    img.src = picture;
  }, [picture]);

  useLayoutEffect(() => {  // the point under the pointer (or the viewport's middle) stays where it was
    const view = viewport.current;
    if (!view || shownZoom.current === zoom) return;
    const before = (WIDTH * shownZoom.current) / pageSize[0];
    const at = anchor.current ?? { px: (view.scrollLeft + view.clientWidth / 2) / before,
                                   py: (view.scrollTop + view.clientHeight / 2) / before,
                                   sx: view.clientWidth / 2, sy: view.clientHeight / 2 };
    view.scrollLeft = at.px * scale - at.sx;
    view.scrollTop = at.py * scale - at.sy;
    anchor.current = null;
    shownZoom.current = zoom;
  }, [zoom, scale, pageSize]);

  useEffect(() => {  // Ctrl+wheel zooms at the pointer (a passive React listener could not stop the page scrolling)
    const view = viewport.current;
    if (!view) return;
    const wheel = (event: WheelEvent) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      const rect = view.getBoundingClientRect();
      const sx = event.clientX - rect.left, sy = event.clientY - rect.top;
      anchor.current = { px: (view.scrollLeft + sx) / scale, py: (view.scrollTop + sy) / scale, sx, sy };
      onZoom(zoomed(zoom, event.deltaY < 0 ? 1 : -1));
    };
    view.addEventListener("wheel", wheel, { passive: false });
    return () => view.removeEventListener("wheel", wheel);
  }, [zoom, scale, onZoom]);

  useEffect(() => {  // the selected SKU is brought into view when it is not
    const view = viewport.current;
    const sku = skus[selected];
    if (!view || !sku) return;
    const [x0, y0, x1, y1] = sku.bbox.map((v) => v * scale);
    if (x0 < view.scrollLeft || x1 > view.scrollLeft + view.clientWidth) view.scrollLeft = x0 - 40;
    if (y0 < view.scrollTop || y1 > view.scrollTop + view.clientHeight) view.scrollTop = y0 - view.clientHeight / 3;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected]);

  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx || !bitmap) return;
    ctx.clearRect(0, 0, width, height);
    ctx.drawImage(bitmap, 0, 0, width, height);
    const box = (b: BBox) => [b[0] * scale, b[1] * scale, (b[2] - b[0]) * scale, (b[3] - b[1]) * scale] as const;
    const chosen = skus[selected];
    ctx.strokeStyle = "#bbb";
    ctx.lineWidth = 0.5;
    for (const block of blocks) ctx.strokeRect(...box(block.bbox));
    ctx.setLineDash([4, 3]);
    ctx.lineWidth = 1.5;
    for (const image of images) {
      const rank = chosen ? chosen.candidates.indexOf(image.image_id) : -1;
      ctx.strokeStyle = chosen && chosen.image_id === image.image_id ? "#0a0" : rank >= 0 ? "#c0f" : "#3a3";
      ctx.strokeRect(...box(image.bbox));
      if (rank >= 0) {
        ctx.fillStyle = "#c0f";
        ctx.font = "bold 16px sans-serif";
        ctx.fillText(String(rank + 1), image.bbox[0] * scale + 4, image.bbox[1] * scale + 18);
      }
    }
    ctx.setLineDash([]);
    skus.forEach((sku, i) => {
      if (i === selected) return;
      const isPicked = picked.has(sku.key);
      ctx.strokeStyle = isPicked ? "#f0a" : sku.sku_id === null ? "#f60" : "#26f";
      ctx.lineWidth = isPicked ? 2 : 1;
      ctx.strokeRect(...box(sku.bbox));
    });
    if (chosen) {
      ctx.strokeStyle = "#f30";
      ctx.lineWidth = 3;
      ctx.strokeRect(...box(chosen.bbox));
    }
    if (table) drawTable(ctx, table, tableRows, scale);
    if (drag && (drag.kind === "box" || drag.kind === "pick")) {
      ctx.strokeStyle = drag.kind === "pick" ? "#f0a" : "#f60";
      ctx.lineWidth = 2;
      ctx.strokeRect(drag.x0, drag.y0, drag.x1 - drag.x0, drag.y1 - drag.y0);
    }
    performance.mark("page-drawn");
  }, [bitmap, skus, images, blocks, selected, picked, drag, table, tableRows, scale, width, height]);

  const at = (event: { clientX: number; clientY: number }) => {
    const rect = canvas.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const cutNear = (x: number, y: number) => table && y >= table.bbox[1] * scale && y <= table.bbox[3] * scale
    ? table.cuts.findIndex((c) => Math.abs(c * scale - x) <= GRAB) : -1;

  const down = (event: React.MouseEvent) => {
    const p = at(event);
    if (mode || event.shiftKey) {
      setDrag({ kind: mode ? "box" : "pick", x0: p.x, y0: p.y, x1: p.x, y1: p.y });
      return;
    }
    const cut = cutNear(p.x, p.y);
    if (cut >= 0) {
      setDrag({ kind: "cut", index: cut });
      return;
    }
    const x = p.x / scale, y = p.y / scale;
    let best = -1, area = Infinity;
    skus.forEach((s, i) => {
      const [x0, y0, x1, y1] = s.bbox;
      const a = (x1 - x0) * (y1 - y0);
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1 && a < area) { best = i; area = a; }
    });
    if (best >= 0) props.onSelect(best);
    else if (viewport.current) {
      setDrag({ kind: "pan", x: event.clientX, y: event.clientY, left: viewport.current.scrollLeft,
                top: viewport.current.scrollTop });
    }
  };

  const move = (event: MouseEvent) => {
    if (!drag) return;
    if (drag.kind === "pan") {
      viewport.current!.scrollLeft = drag.left - (event.clientX - drag.x);
      viewport.current!.scrollTop = drag.top - (event.clientY - drag.y);
    } else if (drag.kind === "cut" && table) {
      props.onCuts(table.cuts.map((c, i) => (i === drag.index ? at(event).x / scale : c)));
    } else if (drag.kind !== "cut") {
      const p = at(event);
      setDrag({ ...drag, x1: p.x, y1: p.y });
    }
  };

  const up = () => {
    setDrag(null);
    if (!drag || (drag.kind !== "box" && drag.kind !== "pick")) return;
    const [x0, x1] = [Math.min(drag.x0, drag.x1) / scale, Math.max(drag.x0, drag.x1) / scale];
    const [y0, y1] = [Math.min(drag.y0, drag.y1) / scale, Math.max(drag.y0, drag.y1) / scale];
    if ((x1 - x0) * scale <= 3 || (y1 - y0) * scale <= 3) return;
    if (drag.kind === "box") props.onDrawn([x0, y0, x1, y1]);
    else props.onPick(skus.filter((s) => {
      const cx = (s.bbox[0] + s.bbox[2]) / 2, cy = (s.bbox[1] + s.bbox[3]) / 2;
      return cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
    }).map((s) => s.key));
  };

  useEffect(() => {  // a drag goes on past the canvas's edge: the window hears it out
    if (!drag) return;
    window.addEventListener("mousemove", move);
    window.addEventListener("mouseup", up);
    return () => { window.removeEventListener("mousemove", move); window.removeEventListener("mouseup", up); };
  });

  const double = (event: React.MouseEvent) => {  // a boundary added, or one double-clicked removed
    if (!table || mode) return;
    const p = at(event);
    const [x, y] = [p.x / scale, p.y / scale];
    if (x <= table.bbox[0] || x >= table.bbox[2] || y < table.bbox[1] || y > table.bbox[3]) return;
    const cut = cutNear(p.x, p.y);
    props.onCuts(cut >= 0 ? table.cuts.filter((_, i) => i !== cut) : [...table.cuts, x]);
  };

  const cursor = mode ? "crosshair" : drag?.kind === "pan" ? "grabbing" : undefined;
  return (
    <div ref={viewport} className="viewport" data-testid="page-viewport">
      <canvas ref={canvas} width={width} height={height} data-testid="page-canvas" data-zoom={zoom}
              className="page" style={{ cursor }} onMouseDown={down} onDoubleClick={double} />
    </div>
  );
}

function drawTable(ctx: CanvasRenderingContext2D, table: TableDraft, rows: TableRow[], scale: number): void {
  const [x0, y0, x1, y1] = table.bbox.map((v) => v * scale);
  ctx.fillStyle = "#06f1";
  ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
  ctx.strokeStyle = "#06f";
  ctx.lineWidth = 2;
  ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
  ctx.strokeStyle = "#06f8";
  ctx.lineWidth = 1;
  for (const row of rows.slice(1)) {
    ctx.beginPath();
    ctx.moveTo(x0, row.bbox[1] * scale - 1);
    ctx.lineTo(x1, row.bbox[1] * scale - 1);
    ctx.stroke();
  }
  ctx.strokeStyle = "#06f";
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 3]);
  for (const cut of table.cuts) {
    ctx.beginPath();
    ctx.moveTo(cut * scale, y0);
    ctx.lineTo(cut * scale, y1);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.font = "bold 12px sans-serif";
  ctx.fillStyle = "#06f";
  const edges = [table.bbox[0], ...table.cuts, table.bbox[2]];
  table.roles.forEach((role, i) => ctx.fillText(role, edges[i] * scale + 3, y0 - 4));
}
