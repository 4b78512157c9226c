import { Trans, useLingui } from '@lingui/react/macro';
import { type ChangeEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.js';
import { Card } from '../../../components/ui/card.js';
import { toast } from '../../../components/ui/toast-store.js';
import { formatPosition, type GeoFix, overlayLines } from '../../../../../common/rules/photo-overlay.js';
import { formatLocalTimestamp, overlayLabels } from '../../../lib/camera-overlay.js';
import {
  captureVideoFrame,
  overlayPickedFile,
  photoAlertText,
  PhotoError,
  photoErrorReason,
  photoProblem,
} from '../../../lib/camera-photo.js';
import { reportUnauthorized } from '../../../lib/api-client.js';
import { useSignedInUser } from '../../auth/index.js';
import { submitRecord, type SubmitOutcome } from '../../outbox/index.js';
import { CameraFrame } from './camera-frame.js';
import { LiveCameraView } from './live-camera-view.js';
import { PhotoGuidelines } from './photo-guidelines.js';
import { useCameraStream } from './use-camera-stream.js';
import { positionFix, type PositionState, useDevicePosition } from './use-device-position.js';
import { clearEntry, readEntry, storedEntryType, writeSubmissionResult } from '../flow-storage.js';
import { IncompleteEntry } from '../review/incomplete-entry.js';
import { buildUploadMetadata } from '../upload/build-upload-metadata.js';
import { submissionFailedTitle, submissionFailureDescription } from '../upload/submission-failure.js';
import { lineLabel } from '../value-labels.js';

/** The final JPEG (overlay burned in) and the position that overlay shows. */
interface CapturedPhoto {
  blob: Blob;
  url: string;
  position: GeoFix | null;
}

type Busy = 'capturing' | 'preparing' | 'submitting' | null;

/** The camera screen itself; loaded on demand by CameraPage. */
export function CameraScreen() {
  const { t, i18n } = useLingui();
  const user = useSignedInUser();
  const navigate = useNavigate();
  const [entry] = useState(readEntry);
  const type = entry?.type ?? storedEntryType() ?? 'Service';

  const camera = useCameraStream();
  const position = useDevicePosition();
  const videoRef = useRef<HTMLVideoElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const [photo, setPhoto] = useState<CapturedPhoto | null>(null);
  const photoRef = useRef<CapturedPhoto | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [failedOnce, setFailedOnce] = useState(false);

  // Object URLs hold the photo in memory until revoked: one at a time, none after leaving.
  const replacePhoto = useCallback((next: CapturedPhoto | null) => {
    if (photoRef.current !== null) URL.revokeObjectURL(photoRef.current.url);
    photoRef.current = next;
    setPhoto(next);
  }, []);
  useEffect(
    () => () => {
      if (photoRef.current !== null) URL.revokeObjectURL(photoRef.current.url);
    },
    [],
  );

  const live = camera.state.status === 'live' || camera.state.status === 'starting';

  const keepPhoto = (blob: Blob, fix: GeoFix | null) => {
    // The spec's photo rules apply to what is sent, whichever way it was made.
    const problem = photoProblem(blob);
    if (problem !== null) throw new PhotoError(problem);
    replacePhoto({ blob, url: URL.createObjectURL(blob), position: fix });
    setFormError(null);
    setFailedOnce(false);
  };

  // The status line and the photo's overlay speak the technician's language; the data stay as stored.
  const gpsStatus = (state: PositionState) =>
    state.status === 'locating' ? t`GPS: locating...` : formatPosition(positionFix(state), overlayLabels());

  const linesFor = (fix: GeoFix | null) =>
    entry === null
      ? []
      : overlayLines(
          {
            takenAt: formatLocalTimestamp(new Date()),
            type: entry.type,
            divisionRailway: entry.divisionRailway,
            section: entry.section,
            curveNumber: entry.curveNumber,
            line: lineLabel(entry.line, i18n),
            cofValue: entry.cofValue,
            technicianName: user.name,
            technicianId: user.employeeId,
            position: fix,
          },
          overlayLabels(),
        );

  const openCamera = async () => {
    const opened = await camera.open('environment');
    // Denied or no camera: the spec's fallback is the device's own picker with capture.
    if (!opened) fileInputRef.current?.click();
  };

  const onCapture = async () => {
    setBusy('capturing');
    const fix = positionFix(position);
    try {
      const blob = await captureVideoFrame(videoRef.current, linesFor(fix));
      keepPhoto(blob, fix);
      camera.stop();
    } catch (error) {
      window.alert(photoAlertText(photoErrorReason(error)));
    } finally {
      setBusy(null);
    }
  };

  const onFileChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again still fires a change.
    event.target.value = '';
    if (file === undefined) return;
    setBusy('preparing');
    const fix = positionFix(position);
    try {
      keepPhoto(await overlayPickedFile(file, linesFor(fix)), fix);
    } catch (error) {
      window.alert(photoAlertText(photoErrorReason(error)));
    } finally {
      setBusy(null);
    }
  };

  const onRetake = () => {
    replacePhoto(null);
    if (camera.state.status === 'unavailable') fileInputRef.current?.click();
    else void openCamera();
  };

  const onSubmit = async () => {
    if (photo === null || busy !== null) return;
    // Read again at submit time: the entry, and so its clientSubmissionId, is the stored one.
    const current = readEntry();
    if (current === null) {
      setFormError(t`The inspection details were not found. Please start the inspection again.`);
      return;
    }
    const built = buildUploadMetadata(current, user, photo.position);
    if (!built.ok) {
      setFormError(built.message);
      return;
    }
    setFormError(null);
    setBusy('submitting');
    const outcome: SubmitOutcome = await submitRecord({ metadata: built.metadata, photo: photo.blob, ownerEmployeeId: user.employeeId }).catch(
      // The outbox code could not even load: nothing was stored or sent.
      () => ({ kind: 'not-sent', serverMessage: null }),
    );
    switch (outcome.kind) {
      case 'sent':
        writeSubmissionResult({ status: 'completed', recordId: outcome.recordId, fileName: outcome.fileName });
        clearEntry();
        navigate('/success', { replace: true });
        return;
      case 'queued':
        // Safe in the outbox: the entry may go, the outbox sends the record when it can.
        writeSubmissionResult({ status: 'queued', localId: outcome.localId });
        clearEntry();
        navigate('/success', { replace: true });
        return;
      case 'needs-sign-in':
        clearEntry();
        toast({
          variant: 'destructive',
          title: t`Sign In Again`,
          description: t`Your session has ended. The record is kept on this phone and will be sent after you sign in.`,
        });
        // Forgets the user, which takes the technician to the sign-in screen; the outbox stays.
        reportUnauthorized();
        return;
      case 'refused':
      case 'not-sent':
        // Entry and photo stay: a retry sends the same clientSubmissionId, so a lost answer never makes two records.
        toast({
          variant: 'destructive',
          title: submissionFailedTitle(),
          description: submissionFailureDescription(outcome.kind === 'refused' ? outcome.message : outcome.serverMessage),
        });
        setFailedOnce(true);
        setBusy(null);
        return;
    }
  };

  // The picker lives outside the views so the camera fallback can click it while they change.
  // The visible 'Choose from device' button is its accessible face; the input itself is kept
  // out of the tab order and the accessibility tree, but carries the name for test tools.
  const fileInput = (
    <input
      ref={fileInputRef}
      type="file"
      accept="image/*"
      capture="environment"
      aria-label={t`Choose from device`}
      aria-hidden="true"
      tabIndex={-1}
      className="sr-only"
      onChange={(event) => void onFileChosen(event)}
      disabled={busy !== null}
    />
  );

  let content;
  if (entry === null) {
    content = <IncompleteEntry />;
  } else if (photo !== null) {
    content = (
      <>
        <Card className="p-2">
          <img src={photo.url} alt={t`Captured photo with data overlay`} className="w-full rounded-lg" />
        </Card>
        <PhotoGuidelines />
        {formError ? (
          <p role="alert" className="rounded-lg border-2 border-red-700 bg-red-50 p-3 text-base font-medium text-red-800">
            {formError}
          </p>
        ) : null}
        {failedOnce && busy !== 'submitting' ? (
          <p className="text-base text-slate-800">
            <Trans>Not sent yet. Your photo is kept here: press Submit Record to try again.</Trans>
          </p>
        ) : null}
        <div className="grid grid-cols-2 gap-3">
          <Button variant="outline" size="lg" onClick={onRetake} disabled={busy !== null}>
            <Trans>Retake</Trans>
          </Button>
          <Button size="lg" onClick={() => void onSubmit()} disabled={busy !== null}>
            {busy === 'submitting' ? t`Submitting...` : t`Submit Record`}
          </Button>
        </div>
      </>
    );
  } else {
    const unavailable = camera.state.status === 'unavailable';
    content = (
      <>
        <p className="text-sm text-slate-700">{gpsStatus(position)}</p>
        {unavailable ? (
          <p role="status" className="rounded-lg border-2 border-amber-600 bg-amber-50 p-3 text-base text-slate-900">
            <Trans>The camera is not available. Choose a photo from the device instead.</Trans>
          </p>
        ) : null}
        {busy === 'preparing' ? (
          <p role="status" className="text-base font-semibold text-slate-900">
            <Trans>Preparing photo...</Trans>
          </p>
        ) : null}
        <Button size="lg" variant={unavailable ? 'outline' : 'primary'} className="min-h-20 text-xl" onClick={() => void openCamera()} disabled={busy !== null}>
          <Trans>Open Camera</Trans>
        </Button>
        <Button size="lg" variant={unavailable ? 'primary' : 'outline'} onClick={() => fileInputRef.current?.click()} disabled={busy !== null}>
          <Trans>Choose from device</Trans>
        </Button>
        <PhotoGuidelines />
      </>
    );
  }

  return (
    <>
      {/* Always first and always mounted, so it survives the switch between views. */}
      {fileInput}
      {live ? (
        <LiveCameraView
          stream={camera.state.status === 'live' ? camera.state.stream : null}
          videoRef={videoRef}
          capturing={busy === 'capturing'}
          status={gpsStatus(position)}
          onCancel={camera.stop}
          onCapture={() => void onCapture()}
          onSwitch={() => void camera.switchFacing()}
        />
      ) : (
        <CameraFrame type={type}>{content}</CameraFrame>
      )}
    </>
  );
}
