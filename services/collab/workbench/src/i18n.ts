// UI text in English and Chinese; the choice is kept in localStorage.
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
} as const;

export type Key = keyof typeof TEXT;

export function t(lang: Lang, key: Key): string {
  return TEXT[key][lang];
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
  { keys: "Ctrl+Enter", what: { en: "approve and open the next task", zh: "提交并打开下一个任务" } },
  { keys: "S", what: { en: "skip the task (with a reason)", zh: "跳过任务（需填写原因）" } },
  { keys: "R", what: { en: "release the task", zh: "释放任务" } },
  { keys: "L", what: { en: "switch language", zh: "切换语言" } },
  { keys: "?", what: { en: "show / hide this list", zh: "显示 / 隐藏快捷键" } },
];
