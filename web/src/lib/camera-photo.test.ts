import { afterEach, describe, expect, it } from 'vitest';
import { jpegBlob, restoreCameraStubs, stubCanvas, stubImageDecoding, stubObjectUrls, stubVideoFrame } from '../features/inspection-flow/camera/camera-test-stubs.js';
import { captureVideoFrame, fitWithin, overlayPickedFile, photoAlertText, photoProblem, photoProblemText } from './camera-photo.js';

const problemText = (photo: Blob) => {
  const problem = photoProblem(photo);
  return problem === null ? null : photoProblemText(problem);
};

afterEach(restoreCameraStubs);

const MB = 1024 * 1024;
const fileOf = (bytes: number, type: string) => new File([new Uint8Array(bytes)], 'photo', { type });

describe('photoProblem (the photo rules)', () => {
  it('rejects an empty file', () => {
    expect(problemText(fileOf(0, 'image/jpeg'))).toBe('Invalid file: File is empty or corrupted');
  });

  it('rejects a file over 10 MB and accepts exactly 10 MB', () => {
    expect(problemText(fileOf(10 * MB + 1, 'image/jpeg'))).toBe('File too large: Maximum size is 10MB');
    expect(problemText(fileOf(10 * MB, 'image/jpeg'))).toBeNull();
  });

  it('rejects a type that does not start with image/', () => {
    expect(problemText(fileOf(100, 'application/pdf'))).toBe('Invalid file type: Only image files are allowed');
    expect(problemText(fileOf(100, ''))).toBe('Invalid file type: Only image files are allowed');
    expect(problemText(fileOf(100, 'image/png'))).toBeNull();
  });
});

describe('photoAlertText', () => {
  it("prefixes the reason with 'Failed to capture image'", () => {
    expect(photoAlertText('tooLarge')).toBe('Failed to capture image: File too large: Maximum size is 10MB');
  });

  it('shows the camera-elements failure on its own', () => {
    expect(photoAlertText('noCameraElements')).toBe('Camera capture failed: Unable to access camera elements');
  });
});

describe('fitWithin', () => {
  it('scales the long side down to 1920 and keeps the aspect ratio', () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 1920, height: 1440 });
    expect(fitWithin(3000, 4000)).toEqual({ width: 1440, height: 1920 });
  });

  it('never scales up', () => {
    expect(fitWithin(1280, 720)).toEqual({ width: 1280, height: 720 });
  });
});

describe('captureVideoFrame', () => {
  const lines = ['line one', 'line two'];

  it('draws the frame at the video native size, burns in the overlay and returns the JPEG', async () => {
    stubVideoFrame(1920, 1080);
    const canvas = stubCanvas({ blob: jpegBlob(5000) });
    const blob = await captureVideoFrame(document.createElement('video'), lines);
    expect(blob.size).toBe(5000);
    expect(canvas.sizes).toEqual([{ width: 1920, height: 1080 }]);
    expect(canvas.drawImage).toHaveBeenCalledWith(expect.any(HTMLVideoElement), 0, 0, 1920, 1080);
    expect(canvas.texts).toEqual(lines);
  });

  it('encodes JPEG at quality 0.8', async () => {
    stubVideoFrame();
    stubCanvas();
    await captureVideoFrame(document.createElement('video'), lines);
    expect(HTMLCanvasElement.prototype.toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/jpeg', 0.8);
  });

  it.each([
    ['there is no video element', 'Camera capture failed: Unable to access camera elements', () => null, () => stubCanvas()],
    ['the video has no frame yet', 'Video not ready', () => document.createElement('video'), () => stubCanvas()],
    ['the canvas gives no 2D context', 'Canvas not available', ready, () => stubCanvas({ context: false })],
    ['the encoder gives nothing', 'Could not create image data', ready, () => stubCanvas({ blob: null })],
    ['the encoder gives an empty image', 'Image data is empty', ready, () => stubCanvas({ blob: new Blob([], { type: 'image/jpeg' }) })],
  ])('fails when %s', async (_case, message, video, canvas) => {
    canvas();
    await expect(captureVideoFrame(video(), lines)).rejects.toThrow(message);
  });

  function ready() {
    stubVideoFrame();
    return document.createElement('video');
  }
});

describe('overlayPickedFile', () => {
  it('scales a large photo to 1920 on the long side, with the overlay', async () => {
    stubObjectUrls();
    stubImageDecoding({ width: 4000, height: 3000 });
    const canvas = stubCanvas();
    const blob = await overlayPickedFile(fileOf(3 * MB, 'image/jpeg'), ['overlay']);
    expect(blob.type).toBe('image/jpeg');
    expect(canvas.sizes).toEqual([{ width: 1920, height: 1440 }]);
    expect(canvas.texts).toEqual(['overlay']);
  });

  it('treats a file it cannot decode as corrupted', async () => {
    stubImageDecoding('fail');
    stubCanvas();
    await expect(overlayPickedFile(fileOf(500, 'image/jpeg'), [])).rejects.toThrow('Invalid file: File is empty or corrupted');
  });

  it('checks the file before decoding it', async () => {
    const decode = stubImageDecoding({ width: 10, height: 10 });
    await expect(overlayPickedFile(fileOf(100, 'text/plain'), [])).rejects.toThrow('Invalid file type: Only image files are allowed');
    expect(decode).not.toHaveBeenCalled();
  });
});
