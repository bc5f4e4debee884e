import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Ops } from "./Ops";
import "../styles.css";
import "./ops.css";

createRoot(document.getElementById("root")!).render(<StrictMode><Ops /></StrictMode>);
