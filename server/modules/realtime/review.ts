/**
 * The document review room's two reads and one write, from the modules that
 * own them: whether a file is a document of the case (files), and accepting a
 * document of the checklist (comments, which keeps it in the case history).
 */
export { caseHoldsFile as fileOfCase } from '../files/repo.js';
export { acceptChecklistDocument as acceptDocument } from '../comments/commands.js';
