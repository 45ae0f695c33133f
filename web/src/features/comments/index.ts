/** What the comments feature puts on other features' pages: the thread of a case or task, and the case's document checklist. */
export { CommentThread } from './CommentThread.js';
export { DocumentChecklist } from './DocumentChecklist.js';
/** The case's checklist documents, for a picker of them (a return for correction asks for some). */
export { useChecklist } from './api.js';
