import { describe, expect, it } from 'vitest';
import { checkTemplate, escapeHtml, PLACEHOLDERS, placeholdersOf, renderPlaceholders, renderSubject, TemplateError } from './render.js';

describe('checkTemplate', () => {
  it('accepts plain text and placeholders of the catalogue, with or without spaces inside the braces', () => {
    expect(checkTemplate('Hello {{applicantFirstName}}, case {{ caseNumber }}.\n<a href="{{recordLink}}">open</a>')).toEqual([]);
    expect(checkTemplate('')).toEqual([]);
    expect(checkTemplate('no placeholders { at } all }}')).toEqual([]);
    for (const name of PLACEHOLDERS) expect(checkTemplate(`{{${name}}}`)).toEqual([]);
  });

  it('refuses each kind of tag that is not a plain variable, naming it with its line and column', () => {
    const cases: Array<[string, { kind: string; name: string; line: number; column: number }]> = [
      ['a {{#caseNumber}}x{{/caseNumber}}', { kind: 'section', name: 'caseNumber', line: 1, column: 3 }],
      ['line one\n  {{^caseNumber}}x{{/caseNumber}}', { kind: 'inverted', name: 'caseNumber', line: 2, column: 3 }],
      ['{{> header}}', { kind: 'partial', name: 'header', line: 1, column: 1 }],
      ['x\ny\nzz {{{applicantName}}}', { kind: 'unescaped', name: 'applicantName', line: 3, column: 4 }],
      ['{{& applicantName}}', { kind: 'unescaped', name: 'applicantName', line: 1, column: 1 }],
      ['hi {{! a note }}', { kind: 'comment', name: 'a note', line: 1, column: 4 }],
      ['{{=<% %>=}}', { kind: 'delimiters', name: '<% %>', line: 1, column: 1 }],
      ['Dear {{constructor}}', { kind: 'unknown', name: 'constructor', line: 1, column: 6 }],
      ['\n\n{{__proto__}}', { kind: 'unknown', name: '__proto__', line: 3, column: 1 }],
      ['{{caseNumber.length}}', { kind: 'unknown', name: 'caseNumber.length', line: 1, column: 1 }],
      ['{{toString}}', { kind: 'unknown', name: 'toString', line: 1, column: 1 }],
    ];
    for (const [text, problem] of cases) expect(checkTemplate(text), text).toEqual([problem]);
  });

  it('reports every problem of a text, those inside a section too', () => {
    const problems = checkTemplate('{{nope}} and\n{{#caseNumber}}{{constructor}}{{/caseNumber}}');
    expect(problems.map((p) => [p.kind, p.name, p.line, p.column])).toEqual([
      ['unknown', 'nope', 1, 1],
      ['section', 'caseNumber', 2, 1],
      ['unknown', 'constructor', 2, 16],
    ]);
  });

  it('refuses an unclosed tag or section as a syntax problem with its position', () => {
    expect(checkTemplate('ok\nHello {{caseNumber')).toEqual([{ kind: 'syntax', name: '', line: 2, column: 19 }]);
    expect(checkTemplate('{{#caseNumber}} open')).toEqual([{ kind: 'syntax', name: '', line: 1, column: 21 }]);
  });

  it('lists the placeholders a template names, each once', () => {
    expect(placeholdersOf('{{caseNumber}} {{taskName}} {{caseNumber}}')).toEqual(['caseNumber', 'taskName']);
  });
});

describe('renderPlaceholders', () => {
  it('fills placeholders, escaping values in HTML and not in plain text', () => {
    const values = { applicantName: `Ana <script>alert("x")</script> & 'Bo'`, caseNumber: '2026-01-0007' };
    expect(renderPlaceholders('<p>{{applicantName}} ({{caseNumber}})</p>', values, { html: true })).toBe(
      '<p>Ana &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Bo&#39; (2026-01-0007)</p>',
    );
    expect(renderPlaceholders('{{applicantName}} ({{caseNumber}})', values, { html: false })).toBe(`Ana <script>alert("x")</script> & 'Bo' (2026-01-0007)`);
    expect(escapeHtml('a="b"`')).toBe('a&#61;&quot;b&quot;&#96;');
  });

  it('keeps the text around placeholders exactly, line breaks and indentation included', () => {
    expect(renderPlaceholders('  {{taskName}}\n\n  due {{dueDate}}\n', { taskName: 'Review', dueDate: '2026-12-01' }, { html: false })).toBe('  Review\n\n  due 2026-12-01\n');
  });

  it('gives an empty string for a missing value, and never reads a prototype or calls a function', () => {
    const values = Object.create({ caseNumber: 'inherited' }) as Record<string, unknown>;
    values.taskName = () => 'called';
    values.reason = 42;
    expect(renderPlaceholders('[{{caseNumber}}][{{taskName}}][{{reason}}]', values as never, { html: true })).toBe('[][][]');
  });

  it('refuses to render a template with any problem, rendering nothing of it', () => {
    const values = { caseNumber: 'x' };
    expect(() => renderPlaceholders('{{constructor}}', values, { html: false })).toThrow(TemplateError);
    expect(() => renderPlaceholders('{{__proto__}}', values, { html: true })).toThrow(TemplateError);
    expect(() => renderPlaceholders('{{#caseNumber}}{{caseNumber}}{{/caseNumber}}', values, { html: true })).toThrow(/section caseNumber at 1:1/);
    expect(() => renderPlaceholders('{{{caseNumber}}}', values, { html: true })).toThrow(/unescaped/);
  });

  it('does not touch Object.prototype however the values are shaped', () => {
    const values = JSON.parse('{"__proto__": {"polluted": "yes"}, "caseNumber": "1"}');
    expect(renderPlaceholders('{{caseNumber}}', values, { html: false })).toBe('1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a subject is one line whatever the values bring', () => {
    expect(renderSubject('Case {{caseNumber}}: {{taskName}}', { caseNumber: '7', taskName: 'Review\r\nBcc: victim@example.org' })).toBe('Case 7: Review Bcc: victim@example.org');
  });
});
