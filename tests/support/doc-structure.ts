/**
 * The parts of a concept doc's markdown that a translation keeps as English has them: heading
 * levels, fenced code blocks, inline code spans, link targets and the first column of each table,
 * plus the prose outside code, where glossary terms are looked for. A small reader for the markdown
 * the docs use (ATX headings, fenced blocks, pipe tables), not a full CommonMark parser. Test-only.
 */

export interface DocStructure {
  /** Heading levels in order (2 for `##`). */
  headings: number[];
  /** Fenced code blocks, fences included, each line without the opening fence's indentation. */
  codeBlocks: string[];
  /** Distinct inline code spans, sorted. */
  codeSpans: string[];
  /** Distinct link targets, sorted. */
  links: string[];
  /** Per table, per body row: the code spans of the first cell, joined by a space ('' for none). */
  tables: string[][];
  /** The text outside code blocks and code spans, without link targets. */
  prose: string;
}

const FENCE = /^( *)(`{3,}|~{3,})/;
const TABLE_SEPARATOR = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** Inline code spans in text outside code blocks, with their offsets. */
function codeSpansIn(text: string): { start: number; end: number; content: string }[] {
  const out: { start: number; end: number; content: string }[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '\\' && text[i + 1] === '`') {
      i += 2;
      continue;
    }
    if (text[i] !== '`') {
      i++;
      continue;
    }
    let run = 0;
    while (text[i + run] === '`') run++;
    const ticks = '`'.repeat(run);
    let close = text.indexOf(ticks, i + run);
    while (close !== -1 && text[close + run] === '`') {
      let skip = close;
      while (text[skip] === '`') skip++;
      close = text.indexOf(ticks, skip);
    }
    if (close === -1) {
      i += run; // an unmatched run is literal text
      continue;
    }
    let content = text.slice(i + run, close).replace(/\n/g, ' ');
    if (content.length > 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') content = content.slice(1, -1);
    out.push({ start: i, end: close + run, content });
    i = close + run;
  }
  return out;
}

/** The first cell of a table row, up to the first `|` that is neither escaped nor inside a code span. */
function firstCell(row: string): string {
  const text = row.trim().replace(/^\|/, '');
  const spans = codeSpansIn(text);
  for (let i = 0; i < text.length; i++) {
    const inSpan = spans.find((s) => i >= s.start && i < s.end);
    if (inSpan) {
      i = inSpan.end - 1;
      continue;
    }
    if (text[i] === '\\') i++;
    else if (text[i] === '|') return text.slice(0, i);
  }
  return text;
}

export function docStructure(body: string): DocStructure {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const codeBlocks: string[] = [];
  const textLines: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      textLines.push(lines[i]);
      continue;
    }
    const indent = open[1].length;
    const fence = open[2];
    const block = [lines[i].slice(indent)];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j].replace(new RegExp(`^ {0,${indent}}`), '');
      block.push(line);
      const close = line.trimEnd();
      if (close.length >= fence.length && close === fence[0].repeat(close.length)) break;
    }
    codeBlocks.push(block.map((l) => l.trimEnd()).join('\n'));
    for (let k = i; k <= Math.min(j, lines.length - 1); k++) textLines.push('');
    i = j;
  }

  const headings = textLines.map((l) => /^(#{1,6})\s+\S/.exec(l)).flatMap((m) => (m ? [m[1].length] : []));

  const tables: string[][] = [];
  for (let i = 0; i < textLines.length; i++) {
    if (!textLines[i].trim().startsWith('|') || !TABLE_SEPARATOR.test(textLines[i + 1] ?? '')) continue;
    const rows: string[] = [];
    let j = i + 2;
    for (; j < textLines.length && textLines[j].trim().startsWith('|'); j++)
      rows.push(
        codeSpansIn(firstCell(textLines[j]))
          .map((s) => `\`${s.content}\``)
          .join(' '),
      );
    tables.push(rows);
    i = j - 1;
  }

  const text = textLines.join('\n');
  const spans = codeSpansIn(text);
  let noCode = '';
  let at = 0;
  for (const s of spans) {
    noCode += text.slice(at, s.start) + ' ';
    at = s.end;
  }
  noCode += text.slice(at);
  const links = new Set<string>();
  for (const m of noCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) links.add(m[1]);
  for (const m of noCode.matchAll(/<(https?:\/\/[^>\s]+)>/g)) links.add(m[1]);
  const prose = noCode.replace(/\]\([^)]*\)/g, ']').replace(/<https?:\/\/[^>\s]+>/g, ' ');

  return {
    headings,
    codeBlocks,
    codeSpans: [...new Set(spans.map((s) => s.content))].sort(),
    links: [...links].sort(),
    tables,
    prose,
  };
}
