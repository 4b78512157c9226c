/**
 * DATA_DIR/control.sock makes a backup for whoever connects, so it is its owner's alone from the
 * moment it exists: bound under an owner-only umask, never widened and then chmod-ed.
 */
import { lstatSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withUmask } from '../../test/file-modes.js';
import { controlSocketPath, requestBackupFromServer, startControlSocket } from './control-socket.js';

const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the control socket', () => {
  it('is owner-only from its bind, even under a wide umask, and puts the umask back', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-control-'));
    dirs.push(dataDir);
    const socketPath = controlSocketPath(dataDir);
    // Node binds a Unix socket synchronously inside listen(): right after it returns is the
    // socket's first moment, before any later chmod could run.
    const modesAtBind: number[] = [];
    const listen = net.Server.prototype.listen;
    vi.spyOn(net.Server.prototype, 'listen').mockImplementation(function (this: net.Server, ...args: unknown[]) {
      const server = Reflect.apply(listen, this, args) as net.Server;
      modesAtBind.push(lstatSync(socketPath).mode & 0o777);
      return server;
    });

    const { server, umaskAfter } = await withUmask(0o000, async () => {
      const started = await startControlSocket(dataDir, async () => ({ made: false, reason: 'not-due' }));
      // Reading the umask sets it: 0 in, 0 out, when the call put it back.
      return { server: started, umaskAfter: process.umask(0o000) };
    });
    try {
      expect(umaskAfter).toBe(0o000);
      expect(modesAtBind).toHaveLength(1);
      expect(modesAtBind[0]! & 0o077, `mode ${modesAtBind[0]!.toString(8)} at bind`).toBe(0);
      const now = lstatSync(socketPath);
      expect(now.isSocket()).toBe(true);
      expect(now.mode & 0o077).toBe(0);
      // And its owner still gets through.
      expect(await requestBackupFromServer(dataDir, undefined, () => undefined)).toEqual({ made: false, reason: 'not-due' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
