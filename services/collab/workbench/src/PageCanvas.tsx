// The page picture with every SKU box, image box and text block drawn over it, on one canvas: 800 boxes are 800
// rectangles drawn in one pass, not 800 DOM nodes. Click a box to select its SKU; in drawing mode,
// drag to draw a new SKU's box (in PDF points, as the API speaks).
import { useEffect, useRef, useState } from "react";
import type { BBox, Image } from "./api";
import type { EditSku } from "./edits";

type Props = {
  picture: string; pageSize: [number, number]; skus: EditSku[]; images: Image[]; blocks: { bbox: BBox }[];
  selected: number;
  drawing: boolean; onSelect: (index: number) => void; onDrawn: (bbox: BBox) => void;
};

const WIDTH = 760;

export function PageCanvas({ picture, pageSize, skus, images, blocks, selected, drawing, onSelect, onDrawn }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [bitmap, setBitmap] = useState<HTMLImageElement | null>(null);
  const [drag, setDrag] = useState<{ x0: number; y0: number; x1: number; y1: number } | null>(null);
  const scale = WIDTH / pageSize[0];
  const height = Math.round(pageSize[1] * scale);

  useEffect(() => {
    const img = new window.Image();
    img.onload = () => setBitmap(img);
    img.src = picture;
  }, [picture]);

  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx || !bitmap) return;
    ctx.clearRect(0, 0, WIDTH, height);
    ctx.drawImage(bitmap, 0, 0, WIDTH, height);
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
      ctx.strokeStyle = sku.sku_id === null ? "#f60" : "#26f";
      ctx.lineWidth = 1;
      ctx.strokeRect(...box(sku.bbox));
    });
    if (chosen) {
      ctx.strokeStyle = "#f30";
      ctx.lineWidth = 3;
      ctx.strokeRect(...box(chosen.bbox));
    }
    if (drag) {
      ctx.strokeStyle = "#f60";
      ctx.lineWidth = 2;
      ctx.strokeRect(drag.x0, drag.y0, drag.x1 - drag.x0, drag.y1 - drag.y0);
    }
    performance.mark("page-drawn");
  }, [bitmap, skus, images, blocks, selected, drag, scale, height]);

  const at = (event: React.MouseEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  const down = (event: React.MouseEvent) => {
    const p = at(event);
    if (drawing) {
      setDrag({ x0: p.x, y0: p.y, x1: p.x, y1: p.y });
      return;
    }
    const x = p.x / scale, y = p.y / scale;
    let best = -1, area = Infinity;
    skus.forEach((s, i) => {
      const [x0, y0, x1, y1] = s.bbox;
      const a = (x1 - x0) * (y1 - y0);
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1 && a < area) { best = i; area = a; }
    });
    if (best >= 0) onSelect(best);
  };

  const move = (event: React.MouseEvent) => {
    if (drag) { const p = at(event); setDrag({ ...drag, x1: p.x, y1: p.y }); }
  };

  const up = () => {
    if (!drag) return;
    const [x0, x1] = [Math.min(drag.x0, drag.x1), Math.max(drag.x0, drag.x1)];
    const [y0, y1] = [Math.min(drag.y0, drag.y1), Math.max(drag.y0, drag.y1)];
    setDrag(null);
    if (x1 - x0 > 3 && y1 - y0 > 3) onDrawn([x0 / scale, y0 / scale, x1 / scale, y1 / scale]);
  };

  return (
    <canvas ref={canvas} width={WIDTH} height={height} data-testid="page-canvas"
            className={drawing ? "page drawing" : "page"} onMouseDown={down} onMouseMove={move} onMouseUp={up} />
  );
}
