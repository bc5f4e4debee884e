// The ops page's words in English and Chinese (the language the workbench keeps in localStorage).
import type { Lang } from "../i18n";

const TEXT = {
  title: { en: "skuflow ops", zh: "skuflow 运营" },
  jobs: { en: "Jobs in flight", zh: "进行中的任务" },
  noJobs: { en: "No job is running.", zh: "没有进行中的任务。" },
  file: { en: "File", zh: "文件" },
  status: { en: "Status", zh: "状态" },
  pages: { en: "Pages", zh: "页面" },
  waiting: { en: "Waiting for people", zh: "待人工" },
  started: { en: "Running for", zh: "已运行" },
  backlog: { en: "Review backlog by age", zh: "待审核积压（按等待时长）" },
  openTasks: { en: "open tasks", zh: "个未完成任务" },
  age: { en: "Waiting", zh: "等待时长" },
  tasks: { en: "Tasks", zh: "任务数" },
  oldest: { en: "Oldest waits", zh: "最久等待" },
  annotators: { en: "Annotators", zh: "标注员" },
  name: { en: "Name", zh: "姓名" },
  finished: { en: "Finished", zh: "已完成" },
  perDay: { en: "Per day", zh: "每天" },
  accuracy: { en: "Accuracy", zh: "准确率" },
  seconds: { en: "Seconds a task", zh: "每任务秒数" },
  open: { en: "Open now", zh: "进行中" },
  dlq: { en: "Dead letters", zh: "死信队列" },
  dlqPages: { en: "pages dead-lettered, waiting for a replay or a retry", zh: "页进入死信队列，等待重放或重试" },
  job: { en: "Job", zh: "任务" },
  back: { en: "All jobs", zh: "返回全部" },
  reasons: { en: "Why it needs a person", zh: "需人工原因" },
  page: { en: "Page", zh: "页码" },
  skus: { en: "SKUs", zh: "SKU 数" },
  type: { en: "Task", zh: "任务类型" },
  holder: { en: "Held by", zh: "处理人" },
  refused: { en: "Your login's roles do not cover this view.", zh: "您的账号角色无权查看此内容。" },
  failed: { en: "Could not load: ", zh: "加载失败：" },
  loading: { en: "Loading…", zh: "加载中…" },
  logout: { en: "Log out", zh: "退出" },
} as const;

export type Key = keyof typeof TEXT;

export const say = (lang: Lang, key: Key): string => TEXT[key][lang];
