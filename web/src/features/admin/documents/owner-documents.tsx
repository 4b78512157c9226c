import { useMutation } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiRequest } from '../../../lib/api-client.js';
import { failureText } from '../../../lib/api-failure.js';
import { type DownloadedFile, fileNameFromDisposition, saveFile } from '../records/index.js';

/** The owner's two documents (docs/functional-requirements.md, 'Product documents (owners)'), with the names the server gives them. */
export const OWNER_DOCUMENTS = [
  { key: 'requirements', label: 'Func. Reqs.', url: '/api/download/requirements', fallbackName: 'Functional_Requirements.pdf' },
  { key: 'user-requirements', label: 'User Requirements Doc', url: '/api/download/user-requirements', fallbackName: 'User_Requirements.pdf' },
] as const;

type OwnerDocument = (typeof OWNER_DOCUMENTS)[number];

export const DOCUMENT_TEXTS = {
  title: 'Product documents',
  downloadFailedTitle: 'Download Failed',
  downloadFailed: 'Failed to download document',
  downloading: 'Downloading...',
} as const;

async function fetchDocument(document: OwnerDocument): Promise<DownloadedFile> {
  const res = await apiRequest('GET', document.url);
  return { blob: await res.blob(), fileName: fileNameFromDisposition(res.headers.get('Content-Disposition')) ?? document.fallbackName };
}

/**
 * The owner's product documents: what the system does ('Func. Reqs.') and how each role uses
 * it ('User Requirements Doc'), printed by the server from the text kept with the code, so the
 * PDF is as current as the product. Shown to owners only; the server refuses anyone else.
 */
export function OwnerDocumentsCard() {
  const download = useMutation({
    mutationFn: fetchDocument,
    onSuccess: saveFile,
    onError: (error) =>
      toast({ variant: 'destructive', title: DOCUMENT_TEXTS.downloadFailedTitle, description: failureText(DOCUMENT_TEXTS.downloadFailed, error) }),
  });
  return (
    <Card aria-labelledby="owner-documents-title">
      <CardTitle id="owner-documents-title">{DOCUMENT_TEXTS.title}</CardTitle>
      <CardDescription>
        The functional requirements and the user guide of this app as PDF, made from the documents kept with its code.
      </CardDescription>
      <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-2">
        {OWNER_DOCUMENTS.map((document) => {
          const busy = download.isPending && download.variables.key === document.key;
          return (
            <Button
              key={document.key}
              variant="outline"
              onClick={() => download.mutate(document)}
              disabled={download.isPending}
              aria-busy={busy || undefined}
            >
              {busy ? DOCUMENT_TEXTS.downloading : document.label}
            </Button>
          );
        })}
      </div>
    </Card>
  );
}
