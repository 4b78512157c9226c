/**
 * The owner's documents ('Func. Reqs.' and the User Requirements Doc; docs/functional-requirements.md, 'Product documents (owners)'):
 * the product's own text in docs/, printed as PDF when asked for, so the download is always
 * what the repository says the product does.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { dateInTimeZone } from '../../../common/rules/dates.js';
import { attachment, datedFileName } from '../../content-disposition.js';
import { DOCS_DIR } from '../../paths.js';
import { access, currentUser } from '../../plugins/access.js';
import { lazyModule } from '../../lazy-module.js';

/** The printer (markdown-it, pdfkit), loaded with the first document asked for rather than at start. */
const loadMarkdownPdf = lazyModule('markdown-pdf', () => import('./markdown-pdf.js'));

export { DOCS_DIR };

/** The two documents: where each is served, its text, and the stem of its file name. */
export const OWNER_DOCUMENTS = [
  { url: '/api/download/requirements', file: 'functional-requirements.md', stem: 'Functional_Requirements', title: 'Functional Requirements' },
  { url: '/api/download/user-requirements', file: 'user-guide.md', stem: 'User_Requirements', title: 'User Requirements' },
] as const;

export interface DocumentRoutesOptions {
  /** The clock the file name's date is read from. */
  now: () => Date;
  appTimeZone: string;
  /** Where the Markdown lives; docs/ of the project unless a test says otherwise. */
  docsDir?: string;
}

export async function documentRoutes(app: FastifyInstance, options: DocumentRoutesOptions) {
  const docsDir = options.docsDir ?? DOCS_DIR;
  for (const document of OWNER_DOCUMENTS) {
    app.get(document.url, { config: { access: access.owner } }, async (request, reply) => {
      const user = currentUser(request);
      const markdown = await readFile(path.join(docsDir, document.file), 'utf8');
      const { loadImages, renderMarkdownPdf } = await loadMarkdownPdf();
      const images = await loadImages(markdown, docsDir);
      const today = dateInTimeZone(options.now(), options.appTimeZone);
      const heading = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? document.title;
      // Printed whole before the answer starts (a few pages): a failure is a clean 500, never half a file.
      const { pdf } = await renderMarkdownPdf({
        markdown,
        images,
        title: heading,
        reference: `HKMI field service, ${today}`,
        madeBy: `Printed for ${user.name} (${user.employeeId}) on ${today} from docs/${document.file}`,
        subject: `${document.title} of the HKMI field service app`,
        author: 'HKMI field service',
      });
      void reply.headers({
        'content-type': 'application/pdf',
        'content-disposition': attachment(datedFileName(document.stem, [], today, 'pdf')),
        'cache-control': 'private, no-store',
      });
      return reply.send(pdf.output);
    });
  }
}
