/** What the review feature puts on the case page: the document review room. */
export { DocumentReview } from './DocumentReview.js';
