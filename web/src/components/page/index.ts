/** The page kit: the shapes pages are built from. */
export { ActionToolbar } from './ActionToolbar.js';
export { type Fact, FactsList } from './FactsList.js';
export { FormDialog } from './FormDialog.js';
export { type QueryLike, QueryState } from './QueryState.js';
export { Section } from './Section.js';
export { FilterBar, FilterMultiSelect, FilterSelect, filterFieldSx } from './FilterBar.js';
export { CsvFileStep, importProblem } from './CsvFileStep.js';
export { type ImportProblem, ImportProblemsTable } from './ImportProblemsTable.js';
export { InfoDialog } from './InfoDialog.js';
export { SavedItemsDialog, type SavedItemsTexts } from './SavedItemsDialog.js';
export { DownloadMenuButton } from './DownloadMenuButton.js';
