/** Opening and closing the device camera (1920x1080 ideal, back camera first). */
import { CAMERA_IDEAL_HEIGHT, CAMERA_IDEAL_WIDTH } from '../../../common/constants.js';

export type CameraFacing = 'environment' | 'user';

export function cameraConstraints(facing: CameraFacing): MediaStreamConstraints {
  return {
    // `ideal`, not `exact`: a phone without that mode or size still gives its closest camera.
    video: { facingMode: facing, width: { ideal: CAMERA_IDEAL_WIDTH }, height: { ideal: CAMERA_IDEAL_HEIGHT } },
    audio: false,
  };
}

/** False on plain-HTTP pages and old browsers, where navigator.mediaDevices does not exist. */
export function canUseCamera(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

export function openCamera(facing: CameraFacing): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia(cameraConstraints(facing));
}

/** Stopping every track turns the camera (and its indicator light) off. */
export function stopStream(stream: MediaStream | null): void {
  stream?.getTracks().forEach((track) => track.stop());
}
