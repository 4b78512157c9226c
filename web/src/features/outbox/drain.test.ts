import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDrainer, drainOnce } from './drain.js';
import { createMemoryOutboxStore, type OutboxStore } from './outbox-store.js';
import { withRecordLock } from './record-lock.js';
import { backoffDelay, BACKOFF_MAX_MS } from './send-record.js';
import { makeRecord, storedAnswer, stubUploads } from './test-records.js';

let store: OutboxStore;
// No jitter: the backoff of a test is exactly 5 s, 15 s, 45 s ...
const deps = () => ({ store, random: () => 0.5 });

beforeEach(() => {
  store = createMemoryOutboxStore();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

const networkDown = () => Promise.reject(new TypeError('Failed to fetch'));
const passwordChangeRequired = () =>
  new Response(JSON.stringify({ code: 'PASSWORD_CHANGE_REQUIRED', message: 'Please choose a new password before you continue' }), {
    status: 403,
  });

describe('a drain pass', () => {
  it('sends the oldest record first, one at a time, and deletes each on 201 and on 200 duplicate', async () => {
    const newer = makeRecord({ curveNumber: 'newer', createdAt: 2_000 });
    const older = makeRecord({ curveNumber: 'older', createdAt: 1_000 });
    await store.put(newer);
    await store.put(older);
    const uploads = stubUploads((_upload, index) => (index === 0 ? storedAnswer('INS-1') : storedAnswer('INS-2', true)));

    const result = await drainOnce(deps(), 'TECH001', 'due');

    expect(uploads.map((u) => u.curveNumber)).toEqual(['older', 'newer']);
    expect(result).toMatchObject({ sent: 2, stoppedBy: null });
    expect(await store.list()).toEqual([]);
  });

  it("sends only the signed-in technician's records, never under another identity", async () => {
    await store.put(makeRecord({ owner: 'TECH001', curveNumber: 'mine' }));
    await store.put(makeRecord({ owner: 'TECH002', curveNumber: 'theirs' }));
    const uploads = stubUploads(() => storedAnswer('INS-1'));

    await drainOnce(deps(), 'TECH001', 'all');

    expect(uploads.map((u) => u.curveNumber)).toEqual(['mine']);
    expect((await store.list()).map((r) => r.ownerEmployeeId)).toEqual(['TECH002']);
  });

  it('keeps a record the network could not take, with its error and a backoff, and stops the pass', async () => {
    vi.useFakeTimers({ now: 100_000 });
    const first = makeRecord();
    const second = makeRecord();
    await store.put(first);
    await store.put(second);
    const uploads = stubUploads(networkDown);

    const result = await drainOnce(deps(), 'TECH001', 'due');

    // The next record would fail the same way: it keeps its tries for later.
    expect(uploads).toHaveLength(1);
    expect(result).toMatchObject({ stoppedBy: 'unreachable', blockedUntil: 105_000 });
    expect(await store.get(first.localId)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'No network connection.', nextAttemptAt: 105_000 });
    expect(await store.get(second.localId)).toMatchObject({ attempts: 0 });
  });

  it('leaves a record alone until its backoff has passed, unless told to ignore it', async () => {
    vi.useFakeTimers({ now: 100_000 });
    await store.put(makeRecord({ attempts: 1, nextAttemptAt: 105_000 }));
    const uploads = stubUploads(() => storedAnswer('INS-1'));

    await drainOnce(deps(), 'TECH001', 'due');
    expect(uploads).toHaveLength(0);

    await drainOnce(deps(), 'TECH001', 'all');
    expect(uploads).toHaveLength(1);
    expect(await store.list()).toEqual([]);
  });

  it("marks a record the server refuses (400) failed with the server's message and does not retry it on its own", async () => {
    const refused = makeRecord();
    await store.put(refused);
    const uploads = stubUploads(() =>
      Promise.resolve(new Response(JSON.stringify({ code: 'VALIDATION_FAILED', message: 'The request is not valid', fields: { curveNumber: 'Curve not found' } }), { status: 400 })),
    );

    expect(await drainOnce(deps(), 'TECH001', 'all')).toMatchObject({ refused: 1, stoppedBy: null });
    expect(await store.get(refused.localId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'The request is not valid: Curve not found',
      nextAttemptAt: null,
    });

    await drainOnce(deps(), 'TECH001', 'all');
    expect(uploads).toHaveLength(1);
    // 'Send now' tries a refused record once more, at the technician's request.
    await drainOnce(deps(), 'TECH001', 'retry-failed');
    expect(uploads).toHaveLength(2);
  });

  it('marks a 413 failed as well: a photo too large never fits on a retry', async () => {
    const big = makeRecord();
    await store.put(big);
    stubUploads(() => Promise.resolve(new Response('', { status: 413 })));
    await drainOnce(deps(), 'TECH001', 'all');
    expect(await store.get(big.localId)).toMatchObject({ status: 'failed', lastError: 'The photo is too large for the server (413).' });
  });

  it('stops at a 401 and parks all of the owner\'s records for the next sign-in', async () => {
    const first = makeRecord();
    const second = makeRecord();
    await store.put(first);
    await store.put(second);
    const uploads = stubUploads(() => Promise.resolve(new Response(JSON.stringify({ code: 'SESSION_EXPIRED', message: 'expired' }), { status: 401 })));

    expect(await drainOnce(deps(), 'TECH001', 'all')).toMatchObject({ stoppedBy: 'unauthorized' });
    expect(uploads).toHaveLength(1);
    expect((await store.list()).map((r) => r.status)).toEqual(['needs-sign-in', 'needs-sign-in']);
    expect(await store.get(first.localId)).toMatchObject({ attempts: 0, lastError: 'Your session has ended. Sign in again to send this record.' });
  });

  it('keeps the records waiting, not failed, while the server asks for a new password (403 PASSWORD_CHANGE_REQUIRED)', async () => {
    const first = makeRecord();
    const second = makeRecord();
    await store.put(first);
    await store.put(second);
    const uploads = stubUploads(() => Promise.resolve(passwordChangeRequired()));

    expect(await drainOnce(deps(), 'TECH001', 'all')).toMatchObject({ refused: 0, stoppedBy: 'password-change' });
    // One try tells it all: the second record is not spent on the same answer.
    expect(uploads).toHaveLength(1);
    for (const record of [first, second]) {
      expect(await store.get(record.localId)).toMatchObject({
        status: 'needs-sign-in',
        attempts: 0,
        lastError: 'Waiting for your new password. It is sent once you have chosen one.',
        nextAttemptAt: null,
      });
    }
  });

  it('still marks a record failed for any other 403', async () => {
    const record = makeRecord();
    await store.put(record);
    stubUploads(() => Promise.resolve(new Response(JSON.stringify({ code: 'FORBIDDEN', message: "You don't have permission to access this section." }), { status: 403 })));
    expect(await drainOnce(deps(), 'TECH001', 'all')).toMatchObject({ refused: 1, stoppedBy: null });
    expect(await store.get(record.localId)).toMatchObject({ status: 'failed', lastError: "You don't have permission to access this section." });
  });

  it("sends a record left 'sending' by an app closed mid-send", async () => {
    await store.put(makeRecord({ status: 'sending', attempts: 1 }));
    const uploads = stubUploads(() => storedAnswer('INS-1', true));
    await drainOnce(deps(), 'TECH001', 'due');
    expect(uploads).toHaveLength(1);
    expect(await store.list()).toEqual([]);
  });

  it('skips a record another sender holds, and sends the next one', async () => {
    const held = makeRecord({ curveNumber: 'held' });
    const free = makeRecord({ curveNumber: 'free' });
    await store.put(held);
    await store.put(free);
    const uploads = stubUploads(() => storedAnswer('INS-1'));
    let release = () => {};
    const holding = withRecordLock(held.localId, false, () => new Promise<void>((resolve) => (release = resolve)));

    await drainOnce(deps(), 'TECH001', 'due');
    release();
    await holding;

    expect(uploads.map((u) => u.curveNumber)).toEqual(['free']);
    expect((await store.list()).map((r) => r.localId)).toEqual([held.localId]);
  });

  it('does not spend tries while the phone says it is offline', async () => {
    const record = makeRecord();
    await store.put(record);
    const uploads = stubUploads(() => storedAnswer('INS-1'));
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);

    expect(await drainOnce(deps(), 'TECH001', 'all')).toMatchObject({ stoppedBy: 'offline' });
    expect(uploads).toHaveLength(0);
    expect(await store.get(record.localId)).toMatchObject({ attempts: 0, status: 'pending' });
  });
});

describe('the drainer', () => {
  it('retries on its own after the backoff and sends the same clientSubmissionId every time', async () => {
    vi.useFakeTimers({ now: 0 });
    const record = makeRecord();
    await store.put(record);
    // The first try reaches the server, which stores it, but the answer is lost on the way back.
    const uploads = stubUploads((_upload, index) => (index < 2 ? networkDown() : storedAnswer('INS-7', true)));
    const drainer = createDrainer({ ...deps(), owner: 'TECH001', onUnauthorized: vi.fn() });

    await drainer.trigger('start');
    expect(uploads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(uploads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(uploads).toHaveLength(2);
    expect(await store.get(record.localId)).toMatchObject({ attempts: 2, nextAttemptAt: 5_000 + 15_000 });
    await vi.advanceTimersByTimeAsync(15_000);

    expect(uploads).toHaveLength(3);
    expect(new Set(uploads.map((u) => u.clientSubmissionId))).toEqual(new Set([record.clientSubmissionId]));
    expect(await store.list()).toEqual([]);
    drainer.stop();
  });

  it('stops at a 401, says so once, and sends after the next sign-in', async () => {
    await store.put(makeRecord());
    let sessionValid = false;
    const uploads = stubUploads(() =>
      sessionValid ? storedAnswer('INS-9') : Promise.resolve(new Response(JSON.stringify({ code: 'SESSION_EXPIRED', message: 'expired' }), { status: 401 })),
    );
    const onUnauthorized = vi.fn();
    const before = createDrainer({ ...deps(), owner: 'TECH001', onUnauthorized });

    await before.trigger('start');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect((await store.list())[0]).toMatchObject({ status: 'needs-sign-in' });
    before.stop();

    sessionValid = true;
    const after = createDrainer({ ...deps(), owner: 'TECH001', onUnauthorized });
    await after.trigger('sign-in');
    expect(uploads).toHaveLength(2);
    expect(await store.list()).toEqual([]);
    after.stop();
  });

  it('stops at PASSWORD_CHANGE_REQUIRED, asks for the new password once, sets no timer, and sends after the change', async () => {
    vi.useFakeTimers({ now: 0 });
    await store.put(makeRecord());
    let passwordChosen = false;
    const uploads = stubUploads(() => (passwordChosen ? storedAnswer('INS-10') : Promise.resolve(passwordChangeRequired())));
    const onUnauthorized = vi.fn();
    const onPasswordChangeRequired = vi.fn();
    const before = createDrainer({ ...deps(), owner: 'TECH001', onUnauthorized, onPasswordChangeRequired });

    await before.trigger('start');
    expect(onPasswordChangeRequired).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(BACKOFF_MAX_MS * 2);
    expect(uploads).toHaveLength(1);
    before.stop();

    passwordChosen = true;
    const after = createDrainer({ ...deps(), owner: 'TECH001', onUnauthorized, onPasswordChangeRequired });
    await after.trigger('sign-in');
    expect(uploads).toHaveLength(2);
    expect(await store.list()).toEqual([]);
    after.stop();
  });

  it('runs one pass at a time: a trigger during a pass gets a pass of its own afterwards', async () => {
    const first = makeRecord();
    await store.put(first);
    let answer: (response: Response) => void = () => {};
    const uploads = stubUploads(() => new Promise<Response>((resolve) => (answer = resolve)));
    const drainer = createDrainer({ ...deps(), owner: 'TECH001', onUnauthorized: vi.fn() });

    const running = drainer.trigger('start');
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    const second = makeRecord();
    await store.put(second);
    const following = drainer.trigger('online');
    // Still the first upload only: the second record waits for the pass after this one.
    expect(uploads).toHaveLength(1);
    answer(storedAnswer('INS-1'));
    await running;
    await vi.waitFor(() => expect(uploads).toHaveLength(2));
    answer(storedAnswer('INS-2'));
    expect(await following).toMatchObject({ sent: 1 });
    expect(await store.list()).toEqual([]);
    drainer.stop();
  });
});

describe('backoff', () => {
  it('grows 5 s, 15 s, 45 s ... and stops at 10 minutes, with up to a quarter of jitter', () => {
    const exact = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => backoffDelay(n, exact))).toEqual([5_000, 15_000, 45_000, 135_000, 405_000, BACKOFF_MAX_MS, BACKOFF_MAX_MS]);
    expect(backoffDelay(1, () => 0)).toBe(3_750);
    expect(backoffDelay(1, () => 1)).toBe(6_250);
    expect(backoffDelay(8, () => 1)).toBe(BACKOFF_MAX_MS);
  });
});
