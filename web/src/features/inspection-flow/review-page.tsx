import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { BackButton } from '../../components/ui/back-button.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { Screen } from '../../components/ui/screen.js';
import { useSignedInUser } from '../auth/index.js';
import { OutboxBadge } from '../outbox/index.js';
import { preloadCameraScreen } from './camera-page.js';
import { StepIndicator } from './flow-parts.js';
import { clearEntry, readEntry, readSubmissionResult, updateEntry, writeSubmissionResult } from './flow-storage.js';
import { InspectionSummary } from './review/inspection-summary.js';
import { type MachineWorkingAnswer, MachineWorkingField } from './review/machine-working-field.js';
import { IncompleteEntry } from './review/incomplete-entry.js';
import { recordIdFromImageUrl, REVIEW_ERRORS, verifyUploadedImage } from './review/verify-image.js';

/*
 * In this product the camera screen uploads the photo and the record together, in one
 * request (atomic), and then clears the entry. So an entry only reaches the review with an
 * imageUrl when that upload succeeded but the success screen was never shown (the app was
 * closed or lost the answer's aftermath). 'Submit Inspection' then sends nothing new: it
 * checks that the stored photo is real and shows the success screen for that record.
 */
export function ReviewPage() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  // Read once: the page owns the answer from here on and writes it back on each change.
  const [entry] = useState(readEntry);
  const [answer, setAnswer] = useState<MachineWorkingAnswer | undefined>(entry?.isMachineWorking);
  const [submitting, setSubmitting] = useState(false);
  const { t, i18n } = useLingui();
  const [submitError, setSubmitError] = useState<MessageDescriptor | null>(null);

  const imageUrl = entry?.imageUrl;
  const imageCheck = useQuery({
    queryKey: ['review-image-check', imageUrl],
    queryFn: () => verifyUploadedImage(imageUrl),
    enabled: Boolean(imageUrl),
    staleTime: 0,
    gcTime: 0,
  });

  // The camera is the next step: fetch its code now, while the technician answers.
  useEffect(() => {
    preloadCameraScreen().catch(() => undefined);
  }, []);

  const screenFrame = (children: ReactNode) => (
    <Screen
      title={t`Review`}
      subtitle={<StepIndicator step={3} total={4} name={t`Confirmation`} />}
      back={<BackButton to="/service-details" />}
      actions={<OutboxBadge />}
    >
      {children}
    </Screen>
  );

  if (entry === null) return screenFrame(<IncompleteEntry />);
  // The review step is Service only; a CoF entry goes straight to its photo.
  if (entry.type === 'CoF') return <Navigate to="/camera" replace />;

  const verified = imageCheck.data?.ok === true;
  const checkError = imageCheck.data && !imageCheck.data.ok ? imageCheck.data.message : null;
  const error = submitError ?? checkError;

  const onAnswer = (value: MachineWorkingAnswer) => {
    setAnswer(value);
    updateEntry({ isMachineWorking: value });
  };

  const onSubmitInspection = async () => {
    setSubmitting(true);
    setSubmitError(null);
    // Read again: another tab may have changed or finished this entry since the page opened.
    const current = readEntry();
    const url = current?.imageUrl;
    const check = await verifyUploadedImage(url);
    if (!check.ok || !url) {
      setSubmitError(check.ok ? REVIEW_ERRORS.noImage : check.message);
      setSubmitting(false);
      return;
    }
    // The id in the photo's address belongs to this very entry; a stored result may be an older one's.
    const stored = readSubmissionResult();
    const earlier = stored?.status === 'completed' ? stored : null;
    writeSubmissionResult({
      status: 'completed',
      recordId: recordIdFromImageUrl(url) ?? earlier?.recordId ?? '',
      fileName: current?.fileName ?? earlier?.fileName ?? '',
    });
    clearEntry();
    navigate('/success', { replace: true });
  };

  const onAction = () => {
    if (verified) void onSubmitInspection();
    else navigate('/camera');
  };

  return screenFrame(
    <>
      <InspectionSummary entry={entry} technicianName={user.name} />
      {imageUrl && !checkError ? (
        <Card className="p-2">
          <img src={imageUrl} alt={t`Inspection photo with data overlay`} className="w-full rounded-lg" />
        </Card>
      ) : null}
      <MachineWorkingField value={answer} onChange={onAnswer} />
      {error ? (
        <p role="alert" className="rounded-lg border-2 border-red-700 bg-red-50 p-3 text-base font-medium text-red-800">
          {i18n._(error)}
        </p>
      ) : null}
      <Button size="lg" onClick={onAction} disabled={answer === undefined || submitting || imageCheck.isFetching}>
        {verified ? t`Submit Inspection` : t`Capture Image`}
      </Button>
    </>,
  );
}
