import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button.js';
import { Card, CardDescription, CardTitle } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { apiRequest } from '../../../lib/api-client.js';
import { failureText } from '../../../lib/api-failure.js';
import { type DownloadedFile, fileNameFromDisposition, saveFile } from '../records/index.js';

// The server's own names for the files, used when its answer names none.
const REQUIREMENTS_FILE_NAME = 'Functional_Requirements.pdf';
const USER_REQUIREMENTS_FILE_NAME = 'User_Requirements.pdf';

/** The owner's two documents (docs/functional-requirements.md, 'Product documents (owners)'), with the names the server gives them. */
export const OWNER_DOCUMENTS = [
  { key: 'requirements', label: msg`Func. Reqs.`, url: '/api/download/requirements', fallbackName: REQUIREMENTS_FILE_NAME },
  { key: 'user-requirements', label: msg`User Requirements Doc`, url: '/api/download/user-requirements', fallbackName: USER_REQUIREMENTS_FILE_NAME },
] as const;

type OwnerDocument = (typeof OWNER_DOCUMENTS)[number];

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
  const { t, i18n } = useLingui();
  const download = useMutation({
    mutationFn: fetchDocument,
    onSuccess: saveFile,
    onError: (error) =>
      toast({ variant: 'destructive', title: t`Download Failed`, description: failureText(t`Failed to download document`, error) }),
  });
  return (
    <Card aria-labelledby="owner-documents-title">
      <CardTitle id="owner-documents-title">{t`Product documents`}</CardTitle>
      <CardDescription>
        <Trans>The functional requirements and the user guide of this app as PDF, made from the documents kept with its code.</Trans>
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
              {busy ? t`Downloading...` : i18n._(document.label)}
            </Button>
          );
        })}
      </div>
    </Card>
  );
}
