/**
 * The owner's documents (issue 13; docs/functional-requirements.md, 'Product documents (owners)'): GET /api/download/requirements and
 * /api/download/user-requirements print docs/functional-requirements.md and docs/user-guide.md
 * as PDF for owners only. Read back with poppler as an officer's viewer would show them: every
 * heading of the text is in the PDF, every screenshot of the guide is embedded, and the file
 * is named with the railway's date.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { ADMIN, CLIENT_RTM, TECHNICIAN, createAndSignIn } from '../../test/factories.js';
import { pdfImages, pdfInfo, pdfPageCount, pdfPageTexts, pdfText } from '../../test/pdf.js';
import { parseInline, parseMarkdown } from './markdown-blocks.js';
import { renderMarkdownPdf } from './markdown-pdf.js';
import { DOCS_DIR, OWNER_DOCUMENTS } from './routes.js';

/** 01:30 in Kolkata on 2026-11-24, still the 23rd in UTC: the name must carry the railway's date. */
const NOW = new Date('2026-11-23T20:00:00Z');
const RAILWAY_DATE = '2026-11-24';
const PDF_TEST_MS = 60_000;

/** The Markdown headings (#, ## and ###) of a document, without their inline markers. */
const headingsOf = (markdown: string) =>
  [...markdown.matchAll(/^#{1,3}\s+(.+?)\s*$/gm)].map((m) => m[1]!.replace(/\*\*|`/g, '').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1'));
/** The images a document shows: `![caption](path)`. */
const imagesOf = (markdown: string) => [...markdown.matchAll(/^!\[[^\]]*\]\(([^)\s]+)\)\s*$/gm)].map((m) => m[1]!);
/** Text with its white space (line breaks, layout spacing) collapsed, for comparing. */
const squeezed = (s: string) => s.replace(/\s+/g, ' ').trim();

let t: TestApp;
let cookies: Record<'owner' | 'admin' | 'client' | 'technician', string>;

beforeAll(async () => {
  t = await buildTestApp({ ownerEmployeeIds: ['OWN0001'] }, { now: () => NOW });
  cookies = await createAndSignIn(t, {
    owner: { role: 'Admin', employeeId: 'OWN0001', name: 'Owner One' },
    admin: { ...ADMIN, employeeId: 'ADM0002' },
    client: { ...CLIENT_RTM, employeeId: 'CLI0003' },
    technician: { ...TECHNICIAN, employeeId: 'TEC0004' },
  });
}, 60_000);
afterAll(() => t.close());

const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });

describe.each(OWNER_DOCUMENTS)('GET $url', (document) => {
  it(
    `gives an owner docs/${document.file} as a dated PDF with every heading of the text`,
    async () => {
      const response = await get(document.url, cookies.owner);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${document.stem}_${RAILWAY_DATE}.pdf"`);
      const bytes = response.rawPayload;
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

      const markdown = await readFile(path.join(DOCS_DIR, document.file), 'utf8');
      const headings = headingsOf(markdown);
      expect(headings.length).toBeGreaterThan(5);
      const pdf = squeezed(await pdfText(bytes));
      const missing = headings.filter((h) => !pdf.includes(squeezed(h)));
      expect(missing).toEqual([]);

      const pages = await pdfPageCount(bytes);
      expect(pages).toBeGreaterThan(1);
      // Page furniture: every page says where it is.
      const texts = await pdfPageTexts(bytes);
      texts.forEach((page, i) => expect(squeezed(page)).toContain(`Page ${i + 1} of ${pages}`));
      expect((await pdfInfo(bytes))['Title']).toBe(/^#\s+(.+)$/m.exec(markdown)?.[1]?.trim());

      // Each image the text shows is embedded once where it is shown.
      const images = (await pdfImages(bytes)).filter((image) => image.type === 'image');
      expect(images).toHaveLength(imagesOf(markdown).length);
    },
    PDF_TEST_MS,
  );

  it('is refused to an admin who is not an owner, to a Client and to a technician, and asks a stranger to sign in', async () => {
    expect((await get(document.url, cookies.admin)).statusCode).toBe(403);
    expect((await get(document.url, cookies.client)).statusCode).toBe(403);
    expect((await get(document.url, cookies.technician)).statusCode).toBe(403);
    expect((await get(document.url)).statusCode).toBe(401);
  });
});

it('the user guide shows its screenshots, each a file in docs/screenshots', async () => {
  const markdown = await readFile(path.join(DOCS_DIR, 'user-guide.md'), 'utf8');
  const images = imagesOf(markdown);
  expect(images.length).toBeGreaterThan(5);
  for (const image of images) {
    expect(image).toMatch(/^screenshots\/[\w-]+\.jpg$/);
    await expect(readFile(path.join(DOCS_DIR, image))).resolves.toBeInstanceOf(Buffer);
  }
});

describe('the Markdown the documents use', () => {
  it('reads bold, code and links inline; markers never print', () => {
    expect(parseInline('Tap **Sign In**, then open `/purpose` ([the guide](guide.md)).')).toEqual([
      { text: 'Tap ', style: 'regular' },
      { text: 'Sign In', style: 'bold' },
      { text: ', then open ', style: 'regular' },
      { text: '/purpose', style: 'code' },
      { text: ' (the guide).', style: 'regular' },
    ]);
    expect(parseInline('a 2 * 3 sum, snake_case_name and \\*stars\\*')).toEqual([{ text: 'a 2 * 3 sum, snake_case_name and *stars*', style: 'regular' }]);
  });

  it('reads headings, lists nested one level, tables, images and paragraphs', () => {
    const blocks = parseMarkdown(
      [
        '# Title',
        '',
        'A paragraph',
        'on two lines.',
        '',
        '- one',
        '  - one a',
        '  - one b',
        '- two',
        '  carried on',
        '',
        '3. three',
        '4. four',
        '',
        '| Role | Rights |',
        '|---|--:|',
        '| Admin | `all` |',
        '',
        '![The login screen](screenshots/login.jpg)',
      ].join('\n'),
    );
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'table', 'image']);
    expect(blocks[1]).toEqual({ kind: 'paragraph', spans: [{ text: 'A paragraph on two lines.', style: 'regular' }] });
    const bullets = blocks[2];
    if (bullets?.kind !== 'list') throw new Error('expected a list');
    expect(bullets.items.map((i) => i.spans.map((s) => s.text).join(''))).toEqual(['one', 'two carried on']);
    expect(bullets.items[0]!.children[0]!.items.map((i) => i.spans[0]!.text)).toEqual(['one a', 'one b']);
    expect(blocks[3]).toMatchObject({ kind: 'list', ordered: true, start: 3 });
    expect(blocks[4]).toEqual({ kind: 'table', header: ['Role', 'Rights'], rows: [['Admin', 'all']], align: ['left', 'right'] });
    expect(blocks[5]).toEqual({ kind: 'image', alt: 'The login screen', src: 'screenshots/login.jpg' });
  });

  it('prints a missing image as a note in its place, and long text across pages', async () => {
    const long = Array.from({ length: 120 }, (_, i) => `- Item ${i + 1} with a **bold** word and \`code\``).join('\n');
    const { pdf, pageCount } = await renderMarkdownPdf({
      markdown: `# Doc\n\n![Gone](screenshots/nowhere.jpg)\n\n## Items\n\n${long}\n`,
      images: new Map(),
      title: 'Doc',
      reference: 'ref',
      madeBy: 'test',
      subject: 'test',
      author: 'test',
    });
    const bytes = await buffer(pdf.output);
    expect(pageCount).toBeGreaterThan(1);
    const all = squeezed(await pdfText(bytes));
    expect(all).toContain('[Image not available: screenshots/nowhere.jpg]');
    expect(all).toContain('Item 120 with a bold word and code');
    expect(all).not.toContain('**');
  });
});
