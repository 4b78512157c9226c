import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { Screen } from '../../components/ui/screen.js';
import { ComingSoon } from './flow-parts.js';
import { clearSubmissionResult, readSubmissionResult } from './flow-storage.js';

export function SuccessPage() {
  const navigate = useNavigate();
  const result = readSubmissionResult();
  const finish = () => {
    clearSubmissionResult();
    navigate('/purpose', { replace: true });
  };

  return (
    <Screen title="Submission Result">
      {result && (result.recordId || result.fileName) ? (
        <Card>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-base">
            {result.recordId ? (
              <>
                <dt className="font-semibold">Record ID</dt>
                <dd className="break-all">{result.recordId}</dd>
              </>
            ) : null}
            {result.fileName ? (
              <>
                <dt className="font-semibold">File name</dt>
                <dd className="break-all">{result.fileName}</dd>
              </>
            ) : null}
          </dl>
        </Card>
      ) : null}
      <ComingSoon what="The full submission summary" />
      <div className="flex flex-col gap-3">
        <Button size="lg" onClick={finish}>
          New Inspection
        </Button>
        <Button variant="outline" size="lg" onClick={finish}>
          Return to Home
        </Button>
      </div>
    </Screen>
  );
}
