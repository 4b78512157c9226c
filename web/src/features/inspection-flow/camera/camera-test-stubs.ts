/* eslint-disable lingui/no-unlocalized-strings -- test data, only imported by tests: no text here reaches a person */
/**
 * Test doubles for the browser parts jsdom lacks: canvas drawing and encoding, the camera,
 * video frames, image decoding, object URLs and geolocation. Only imported by tests.
 */
import { vi } from 'vitest';

export const jpegBlob = (bytes = 80_000) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });

export interface CanvasRecording {
  /** Every fillText call's text, in order. */
  texts: string[];
  /** The size of each canvas a 2D context was asked for. */
  sizes: Array<{ width: number; height: number }>;
  drawImage: ReturnType<typeof vi.fn>;
}

/** A 2D context that records what is drawn, and toBlob answering with `blob`. */
export function stubCanvas({ blob = jpegBlob(), context = true }: { blob?: Blob | null; context?: boolean } = {}): CanvasRecording {
  const recording: CanvasRecording = { texts: [], sizes: [], drawImage: vi.fn() };
  const ctx = {
    fillStyle: '',
    font: '',
    textBaseline: 'alphabetic',
    fillRect: vi.fn(),
    fillText: vi.fn((text: string) => {
      recording.texts.push(text);
    }),
    measureText: vi.fn((text: string) => ({ width: text.length * 10 })),
    drawImage: recording.drawImage,
  };
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    if (!context) return null;
    recording.sizes.push({ width: this.width, height: this.height });
    // The fake has only the members the photo code uses.
    return ctx as unknown as CanvasRenderingContext2D;
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) => callback(blob));
  return recording;
}

export function stubObjectUrls() {
  let n = 0;
  const create = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:photo-${++n}`);
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return { create, revoke };
}

export function stubImageDecoding(result: { width: number; height: number } | 'fail') {
  const decode = vi.fn(async () => {
    if (result === 'fail') throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
    return { ...result, close: vi.fn() };
  });
  vi.stubGlobal('createImageBitmap', decode);
  return decode;
}

export interface FakeCamera {
  getUserMedia: ReturnType<typeof vi.fn>;
  /** One stop spy per stream handed out, in order. */
  stops: Array<ReturnType<typeof vi.fn>>;
}

function defineNavigatorProperty(name: 'mediaDevices' | 'geolocation', value: unknown) {
  Object.defineProperty(navigator, name, { value, configurable: true, writable: true });
}

/**
 * A camera granting requests with a stream whose track can be stopped; 'deny' refuses all,
 * 'back-only' refuses the front camera (a device without one).
 */
export function stubCamera(mode: 'grant' | 'deny' | 'back-only' = 'grant'): FakeCamera {
  const stops: FakeCamera['stops'] = [];
  const getUserMedia = vi.fn(async (constraints: MediaStreamConstraints) => {
    if (mode === 'deny') throw new DOMException('Permission denied', 'NotAllowedError');
    const video = constraints.video;
    if (mode === 'back-only' && typeof video === 'object' && video.facingMode === 'user') {
      throw new DOMException('No front camera', 'OverconstrainedError');
    }
    const stop = vi.fn();
    stops.push(stop);
    return { getTracks: () => [{ stop }] };
  });
  defineNavigatorProperty('mediaDevices', { getUserMedia });
  return { getUserMedia, stops };
}

/** Makes every <video> report a playing frame of the given size. */
export function stubVideoFrame(width = 1920, height = 1080) {
  vi.spyOn(HTMLVideoElement.prototype, 'videoWidth', 'get').mockReturnValue(width);
  vi.spyOn(HTMLVideoElement.prototype, 'videoHeight', 'get').mockReturnValue(height);
  vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(4);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
}

export function stubGeolocation(fix: { latitude: number; longitude: number; accuracy: number } | 'deny') {
  const clearWatch = vi.fn();
  defineNavigatorProperty('geolocation', {
    watchPosition: (success: PositionCallback, failure: PositionErrorCallback) => {
      if (fix === 'deny') failure({ code: 1, message: 'User denied Geolocation', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 });
      else success({ coords: fix, timestamp: Date.now() } as unknown as GeolocationPosition);
      return 7;
    },
    clearWatch,
  });
  return { clearWatch };
}

/** Undoes every stub above (spies are restored by vi.restoreAllMocks). */
export function restoreCameraStubs() {
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
  Reflect.deleteProperty(navigator, 'geolocation');
}
