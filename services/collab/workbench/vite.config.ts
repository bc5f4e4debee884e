// The workbench is served by collab under /workbench/; `make setup` builds it into the package.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  base: "/workbench/",
  plugins: [react()],
  build: {
    outDir: "../src/skuflow_collab/static/workbench", emptyOutDir: true,
    // two pages: the annotators' workbench and the operators' page (ops.html)
    rollupOptions: { input: { workbench: "index.html", ops: "ops.html" } },
  },
});
