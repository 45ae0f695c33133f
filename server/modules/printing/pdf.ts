/**
 * Fillable PDFs (AcroForms) with the maintained pdf-lib fork
 * (@cantoo/pdf-lib; docs/decisions.md "Print templates"): what an uploaded
 * PDF is (it must parse, carry no script or embedded file, and not be
 * encrypted), the fields it offers, and a copy filled and flattened.
 *
 * The check walks every object of the document as pdf-lib parsed it (names
 * decoded, objects of compressed object streams included), so `/J#53` or a
 * script hidden in an object stream is found as well as a plain `/JS`.
 */
import {
  PDFArray,
  PDFCheckBox,
  PDFDict,
  PDFDocument,
  PDFDropdown,
  PDFName,
  PDFOptionList,
  PDFRadioGroup,
  PDFSignature,
  PDFStream,
  PDFTextField,
  type PDFField,
} from '@cantoo/pdf-lib';
import type { PdfField } from '../../../core/api/printing.js';
import { AppError } from '../../errors.js';

/** Keys whose presence anywhere means the PDF can run something or carries a file. */
const FORBIDDEN_KEYS = new Set(['JS', 'JavaScript', 'AA', 'EmbeddedFiles', 'EmbeddedFile', 'RichMedia', 'XFA']);
/** Action types refused wherever an action dictionary appears. */
const FORBIDDEN_ACTIONS = new Set(['JavaScript', 'Launch', 'ImportData', 'SubmitForm', 'ResetForm', 'RichMediaExecute', 'Rendition', 'Sound', 'Movie', 'GoToE']);

/** Why a parsed PDF is refused, or undefined when it is clean. */
export function scriptProblem(doc: PDFDocument): string | undefined {
  const openAction = doc.catalog.get(PDFName.of('OpenAction'));
  // An open action that is a destination (an array: open at a page) is harmless; an action dictionary is not.
  if (openAction && !(openAction instanceof PDFArray) && !(doc.context.lookup(openAction) instanceof PDFArray)) return 'OpenAction';
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dicts: PDFDict[] = [];
    if (object instanceof PDFDict) dicts.push(object);
    else if (object instanceof PDFStream) dicts.push(object.dict);
    // Direct dictionaries nested one or two levels (an annotation's /A inside its dict) are reached through their parent.
    while (dicts.length) {
      const dict = dicts.pop() as PDFDict;
      for (const [key, value] of dict.entries()) {
        const k = key.decodeText();
        if (FORBIDDEN_KEYS.has(k)) return k;
        if (k === 'S' && value instanceof PDFName && FORBIDDEN_ACTIONS.has(value.decodeText())) return value.decodeText();
        if (k === 'Type' && value instanceof PDFName && ['Filespec', 'EmbeddedFile'].includes(value.decodeText())) return value.decodeText();
        if (value instanceof PDFDict) dicts.push(value);
        else if (value instanceof PDFArray) for (const item of value.asArray()) if (item instanceof PDFDict) dicts.push(item);
      }
    }
  }
  return undefined;
}

/** The document, parsed; PDF_INVALID when it is not a PDF or is encrypted, PDF_SCRIPT when it carries an action or file. */
export async function loadCheckedPdf(bytes: Uint8Array): Promise<PDFDocument> {
  if (bytes.length < 8 || Buffer.from(bytes.subarray(0, 1024)).indexOf('%PDF-') < 0) throw new AppError('PDF_INVALID');
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
    // A file pdf-lib reads leniently may still have no catalog or pages, or a form it cannot read.
    if (doc.isEncrypted || doc.getPageCount() === 0) throw new Error('no pages');
    doc.getForm().getFields();
  } catch {
    throw new AppError('PDF_INVALID');
  }
  const problem = scriptProblem(doc);
  if (problem) throw new AppError('PDF_SCRIPT', { what: problem });
  return doc;
}

function fieldType(f: PDFField): PdfField['type'] {
  if (f instanceof PDFTextField) return 'text';
  if (f instanceof PDFCheckBox) return 'checkbox';
  if (f instanceof PDFDropdown) return 'dropdown';
  if (f instanceof PDFOptionList) return 'optionList';
  if (f instanceof PDFRadioGroup) return 'radio';
  if (f instanceof PDFSignature) return 'signature';
  return 'button';
}

function fieldOptions(f: PDFField): string[] {
  if (f instanceof PDFDropdown || f instanceof PDFOptionList || f instanceof PDFRadioGroup) return f.getOptions();
  return [];
}

/** The AcroForm's fields: name, type, options (none for a PDF without a form). */
export function formFields(doc: PDFDocument): PdfField[] {
  return doc
    .getForm()
    .getFields()
    .map((f) => ({ name: f.getName(), type: fieldType(f), options: fieldOptions(f) }));
}

const TRUE_WORDS = new Set(['true', 'yes', 'si', 'sí', 'on', '1', 'x']);

/** Whether a value ticks a checkbox: true, a yes-word, a non-zero number. */
export function ticks(value: string | boolean | null | undefined): boolean {
  if (typeof value === 'boolean') return value;
  return TRUE_WORDS.has(String(value ?? '').trim().toLowerCase());
}

/**
 * A copy of the template's PDF with each mapped field set from `values`
 * (field name -> text; a checkbox ticked by a yes-word, a choice set when the
 * value is one of its options), then flattened: the answer has no fields.
 */
export async function fillAndFlatten(template: Uint8Array, values: Record<string, string>): Promise<Uint8Array> {
  const doc = await PDFDocument.load(template, { updateMetadata: false, throwOnInvalidObject: false });
  const form = doc.getForm();
  for (const field of form.getFields()) {
    const name = field.getName();
    if (!Object.hasOwn(values, name)) continue;
    const value = values[name];
    if (field instanceof PDFTextField) {
      const max = field.getMaxLength();
      field.setText(max !== undefined ? value.slice(0, max) : value);
    } else if (field instanceof PDFCheckBox) {
      if (ticks(value)) field.check();
      else field.uncheck();
    } else if (field instanceof PDFDropdown || field instanceof PDFOptionList || field instanceof PDFRadioGroup) {
      const options = field.getOptions();
      const chosen = options.find((o) => o === value) ?? options.find((o) => o.toLowerCase() === value.toLowerCase());
      if (chosen !== undefined) field.select(chosen);
    }
  }
  form.flatten();
  return doc.save();
}
