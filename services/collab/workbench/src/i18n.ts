// UI text in English and Chinese; the choice is kept in localStorage.
import { useCallback, useState } from "react";

export type Lang = "en" | "zh";

const TEXT = {
  title: { en: "skuflow workbench", zh: "skuflow 标注工作台" },
  username: { en: "Username", zh: "用户名" },
  password: { en: "Password", zh: "密码" },
  login: { en: "Log in", zh: "登录" },
  logout: { en: "Log out", zh: "退出" },
  loginFailed: { en: "Invalid username or password", zh: "用户名或密码错误" },
  noTask: { en: "No task is waiting. Checking again shortly…", zh: "暂无待处理任务，稍后自动刷新…" },
  loading: { en: "Loading…", zh: "加载中…" },
  page: { en: "Page", zh: "第" },
  model: { en: "Model", zh: "型号" },
  product_name: { en: "Name", zh: "品名" },
  price: { en: "Price", zh: "价格" },
  size: { en: "Size", zh: "规格" },
  color: { en: "Colour", zh: "颜色" },
  material: { en: "Material", zh: "材质" },
  custom: { en: "Other attributes", zh: "其他属性" },
  attributeName: { en: "name", zh: "属性名" },
  attributeValue: { en: "value", zh: "属性值" },
  addAttribute: { en: "attribute", zh: "添加属性" },
  removeAttribute: { en: "Remove this attribute", zh: "删除此属性" },
  draftRestored: { en: "Your unsaved edits to this page were restored.", zh: "已恢复此页未提交的修改。" },
  sessionEnded: { en: "Your login has ended. Log in again: your unsaved edits are kept.",
                  zh: "登录已失效，请重新登录；未提交的修改已保存。" },
  reworked: { en: "Sent back for rework", zh: "退回返工" },
  revertedBy: { en: "by", zh: "退回人" },
  previousCorrection: { en: "The page shows the earlier correction", zh: "页面显示的是之前的修改" },
  noChanges: { en: "it changed nothing", zh: "未做修改" },
  image: { en: "Image", zh: "图片" },
  candidates: { en: "Candidate images (1-3 to bind, 0 to unbind)", zh: "候选图片（按 1-3 绑定，0 解绑）" },
  approve: { en: "Approve", zh: "提交" },
  skip: { en: "Skip", zh: "跳过" },
  release: { en: "Release", zh: "释放" },
  skipReason: { en: "Why can this page not be done?", zh: "无法处理的原因？" },
  drawHint: { en: "Drag on the page to draw the new SKU's box (Esc cancels)", zh: "在页面上拖动以框选新 SKU（Esc 取消）" },
  drawImageHint: { en: "Drag on the page to draw the product picture; it is bound to the selected SKU",
                   zh: "在页面上拖动以框选商品图片，并绑定到选中的 SKU" },
  shortcuts: { en: "Keyboard shortcuts", zh: "快捷键" },
  saved: { en: "Submitted", zh: "已提交" },
  reason: { en: "Why this page is here", zh: "送审原因" },
  document: { en: "Document", zh: "文档信息" },
  previous: { en: "Previous page", zh: "上一页" },
  next: { en: "Next page", zh: "下一页" },
  skus: { en: "SKUs", zh: "SKU 列表" },
  lockLost: { en: "The task is no longer yours (lock expired or taken).", zh: "任务锁已失效。" },
  other: { en: "Other attribute", zh: "其他属性" },
  ignore: { en: "Ignore", zh: "忽略" },
  cancel: { en: "Cancel", zh: "取消" },
  tableTool: { en: "Table", zh: "表格工具" },
  tableHelp: { en: "Drag a blue boundary to move it; double-click in the table to add one, on one to remove it. "
                   + "Every row becomes a SKU.",
               zh: "拖动蓝色分隔线调整列；在表格内双击添加分隔线，双击分隔线删除。每一行生成一个 SKU。" },
  tableHeader: { en: "The first row is a header", zh: "第一行是表头" },
  tableRows: { en: "Rows", zh: "行数" },
  tableApply: { en: "Make the SKUs", zh: "生成 SKU" },
  drawTableHint: { en: "Drag on the page around the table's rows (Esc cancels)", zh: "在页面上框选表格区域（Esc 取消）" },
  picked: { en: "SKUs picked", zh: "已选 SKU" },
  bulkValue: { en: "new value", zh: "新值" },
  bulkFind: { en: "find (empty: set the whole value)", zh: "查找（留空则整体替换）" },
  bulkReplace: { en: "replace with", zh: "替换为" },
  bulkSet: { en: "Set on all", zh: "全部设置" },
  bulkReplaceAll: { en: "Replace in all", zh: "全部替换" },
  bulkDelete: { en: "Delete these", zh: "删除所选" },
  bulkKeep: { en: "Keep only these", zh: "仅保留所选" },
  bulkClear: { en: "Clear the pick", zh: "取消选择" },
  startOver: { en: "Start over", zh: "重新开始" },
  startOverConfirm: { en: "Drop every edit of this page and start again from the machine's reading?",
                      zh: "放弃此页的全部修改，从机器识别结果重新开始？" },
  zoomIn: { en: "Zoom in", zh: "放大" },
  zoomOut: { en: "Zoom out", zh: "缩小" },
  similarPages: { en: "This correction will be applied to {n} similar pages", zh: "此更正将应用于 {n} 个相似页面" },
  adaptedFrom: { en: "Re-read after the correction of page {n}", zh: "已根据第 {n} 页的更正重新识别" },
  closedUnderYou: { en: "The page you had open needs no review any more", zh: "您打开的页面已无需审核" },
  adaptedFromEarlier: { en: "Read with what was learned from page {n} of an earlier upload",
                        zh: "已参考此前上传文件第 {n} 页的更正识别" },
} as const;

export type Key = keyof typeof TEXT;

/** The text in the language, each {name} in it replaced by ``values``' (e.g. a count). */
export function t(lang: Lang, key: Key, values: Record<string, string | number> = {}): string {
  return TEXT[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}

/** The page's language and the switch between English and Chinese, remembered in the browser. */
export function useLang(): [Lang, () => void] {
  const [lang, setLang] = useState<Lang>((localStorage.getItem("skuflow.lang") as Lang) || "en");
  const switchLang = useCallback(() => setLang((l) => {
    const next = l === "en" ? "zh" : "en";
    localStorage.setItem("skuflow.lang", next);
    return next;
  }), []);
  return [lang, switchLang];
}

export const SHORTCUTS: { keys: string; what: { en: string; zh: string } }[] = [
  { keys: "J / K", what: { en: "next / previous SKU", zh: "下一个 / 上一个 SKU" } },
  { keys: "Tab / Shift+Tab", what: { en: "next / previous field", zh: "下一个 / 上一个字段" } },
  { keys: "Enter", what: { en: "confirm the field, back to the list", zh: "确认字段，返回列表" } },
  { keys: "E", what: { en: "edit the selected SKU", zh: "编辑选中的 SKU" } },
  { keys: "1 / 2 / 3, 0", what: { en: "bind candidate image 1-3, unbind", zh: "绑定候选图片 1-3，解绑" } },
  { keys: "N", what: { en: "draw a new SKU box", zh: "框选新增 SKU" } },
  { keys: "I", what: { en: "draw a product picture for the selected SKU", zh: "为选中的 SKU 框选商品图片" } },
  { keys: "Delete / X", what: { en: "delete the selected SKU", zh: "删除选中的 SKU" } },
  { keys: "T", what: { en: "table tool: draw the table, set its columns, every row a SKU",
                        zh: "表格工具：框选表格、设定列，每行生成一个 SKU" } },
  { keys: "+ / − , Ctrl+wheel", what: { en: "zoom in / out (drag the page to pan)", zh: "放大 / 缩小（拖动页面平移）" } },
  { keys: "Ctrl+A", what: { en: "pick every SKU (then Delete / X deletes the picked ones)",
                           zh: "全选 SKU（再按 Delete / X 删除所选）" } },
  { keys: "Ctrl+click, Shift+click, Shift+J/K, Shift+drag",
    what: { en: "pick several SKUs to edit or delete together", zh: "多选 SKU 以批量编辑或删除" } },
  { keys: "Ctrl+Enter", what: { en: "approve and open the next task", zh: "提交并打开下一个任务" } },
  { keys: "S", what: { en: "skip the task (with a reason)", zh: "跳过任务（需填写原因）" } },
  { keys: "R", what: { en: "release the task", zh: "释放任务" } },
  { keys: "L", what: { en: "switch language", zh: "切换语言" } },
  { keys: "?", what: { en: "show / hide this list", zh: "显示 / 隐藏快捷键" } },
];
