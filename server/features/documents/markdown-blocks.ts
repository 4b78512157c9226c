/**
 * The blocks of a document's Markdown, read by markdown-it (CommonMark with pipe tables) and
 * reduced to what the PDF prints: headings, paragraphs of styled spans, bullet and numbered
 * lists (nested), tables, images on a paragraph of their own, block quotes, code blocks and
 * rules. Emphasis and links keep their words only: the PDF embeds no italic face and its
 * links would lead nowhere from paper.
 */
import MarkdownIt, { type Token } from 'markdown-it';
import type { TextSpan } from '../../pdf/rich-text.js';

export type { TextSpan as Span } from '../../pdf/rich-text.js';

export interface ListItem {
  spans: TextSpan[];
  children: ListBlock[];
}

export interface ListBlock {
  kind: 'list';
  ordered: boolean;
  start: number;
  items: ListItem[];
}

export type Alignment = 'left' | 'right' | 'center';

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; spans: TextSpan[] }
  | ListBlock
  | { kind: 'table'; header: string[]; rows: string[][]; align: Alignment[] }
  | { kind: 'image'; alt: string; src: string }
  | { kind: 'quote'; spans: TextSpan[] }
  | { kind: 'code'; lines: string[] }
  | { kind: 'rule' };

/** Raw HTML prints as the text it is; a bare address stays text, and quotes stay as typed. */
const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false });

/** A block token with the tokens between its opening and its closing. */
interface Node {
  token: Token;
  children: Node[];
}

function treeOf(tokens: readonly Token[]): Node[] {
  const root: Node[] = [];
  const open: Node[][] = [root];
  for (const token of tokens) {
    if (token.nesting === -1) {
      open.pop();
      continue;
    }
    const node: Node = { token, children: [] };
    open.at(-1)!.push(node);
    if (token.nesting === 1) open.push(node.children);
  }
  return root;
}

/** Adds text to the spans, joining it to the last span of the same style (code spans stay apart). */
function append(spans: TextSpan[], text: string, style: TextSpan['style']): void {
  if (text === '') return;
  const last = spans.at(-1);
  if (style !== 'code' && last?.style === style) last.text += text;
  else spans.push({ text, style });
}

/** The styled spans of inline tokens: strong is bold, code is code, line breaks are spaces. */
function spansOf(inline: readonly Token[]): TextSpan[] {
  const spans: TextSpan[] = [];
  let strongDepth = 0;
  for (const token of inline) {
    const style = strongDepth > 0 ? 'bold' : 'regular';
    switch (token.type) {
      case 'strong_open':
        strongDepth += 1;
        break;
      case 'strong_close':
        strongDepth -= 1;
        break;
      case 'code_inline':
        append(spans, token.content, 'code');
        break;
      case 'softbreak':
      case 'hardbreak':
        append(spans, ' ', style);
        break;
      case 'image':
        for (const span of spansOf(token.children ?? [])) append(spans, span.text, style);
        break;
      default:
        // Text, and the words inside emphasis, links and strike-through.
        if (token.children === null) append(spans, token.content, style);
    }
  }
  return spans;
}

const textOf = (spans: readonly TextSpan[]) => spans.map((span) => span.text).join('');

/** Inline Markdown as styled spans: **bold**, `code`, [text](url) as its text, *emphasis* as plain text. */
export function parseInline(source: string): TextSpan[] {
  return spansOf(markdown.parseInline(source, {})[0]?.children ?? []);
}

/** The text of the inline tokens under a node, or of its code block, as spans. */
function spansIn(node: Node): TextSpan[] {
  if (node.token.type === 'inline') return spansOf(node.token.children ?? []);
  if (node.token.type === 'fence' || node.token.type === 'code_block') return [{ text: node.token.content.trim(), style: 'code' }];
  return spansUnder(node.children);
}

/**
 * The spans of every paragraph, heading or code block under these nodes, one space between
 * them: a list item or a quote prints as one run of text.
 */
function spansUnder(nodes: readonly Node[]): TextSpan[] {
  const spans: TextSpan[] = [];
  for (const node of nodes) {
    const inner = spansIn(node);
    if (inner.length > 0 && spans.length > 0) append(spans, ' ', 'regular');
    for (const span of inner) append(spans, span.text, span.style);
  }
  return spans;
}

const inlineText = (node: Node) => textOf(spansUnder(node.children));

function listOf(node: Node): ListBlock {
  const ordered = node.token.type === 'ordered_list_open';
  const items = node.children.map((item) => ({
    spans: spansUnder(item.children.filter((child) => !isList(child))),
    children: item.children.filter(isList).map(listOf),
  }));
  return { kind: 'list', ordered, start: Number(node.token.attrGet('start') ?? 1), items };
}

const isList = (node: Node) => node.token.type === 'bullet_list_open' || node.token.type === 'ordered_list_open';

function alignmentOf(cell: Node): Alignment {
  const style = String(cell.token.attrGet('style') ?? '');
  return style.includes('right') ? 'right' : style.includes('center') ? 'center' : 'left';
}

function tableOf(node: Node): Block {
  // table > thead|tbody > tr > th|td
  const rowsIn = (section: string) => node.children.filter((child) => child.token.type === `${section}_open`).flatMap((part) => part.children);
  const headerCells = rowsIn('thead')[0]?.children ?? [];
  return {
    kind: 'table',
    header: headerCells.map(inlineText),
    rows: rowsIn('tbody').map((row) => row.children.map(inlineText)),
    align: headerCells.map(alignmentOf),
  };
}

/** A paragraph holding one image and nothing else is the image itself, with its caption. */
function imageOf(paragraph: Node): Block | undefined {
  const inline = (paragraph.children[0]?.token.children ?? []).filter((t) => !(t.type === 'text' && t.content.trim() === ''));
  const image = inline.length === 1 && inline[0]!.type === 'image' ? inline[0]! : undefined;
  return image && { kind: 'image', alt: textOf(spansOf(image.children ?? [])), src: String(image.attrGet('src') ?? '') };
}

function blockOf(node: Node): Block | undefined {
  const { token } = node;
  switch (token.type) {
    case 'heading_open':
      return { kind: 'heading', level: Number(token.tag.slice(1)), text: inlineText(node) };
    case 'paragraph_open':
      return imageOf(node) ?? { kind: 'paragraph', spans: spansUnder(node.children) };
    case 'bullet_list_open':
    case 'ordered_list_open':
      return listOf(node);
    case 'table_open':
      return tableOf(node);
    case 'blockquote_open':
      return { kind: 'quote', spans: spansUnder(node.children) };
    case 'fence':
    case 'code_block':
      return { kind: 'code', lines: token.content.replace(/\n$/, '').split('\n') };
    case 'hr':
      return { kind: 'rule' };
    default:
      return undefined;
  }
}

export function parseMarkdown(source: string): Block[] {
  return treeOf(markdown.parse(source, {})).flatMap((node) => blockOf(node) ?? []);
}

/** The images a document shows, in order (with repeats). */
export function imageSources(source: string): string[] {
  return parseMarkdown(source).flatMap((block) => (block.kind === 'image' ? [block.src] : []));
}
