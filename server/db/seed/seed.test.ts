import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asc, count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIVISIONS, MIN_REAL_IMAGE_BYTES } from '../../../common/constants.js';
import { rolloutHasMachine } from '../../../common/rules/rollout.js';
import { listSchedule } from '../../features/schedule/index.js';
import { overlayLayout, overlayLines } from '../../../common/rules/photo-overlay.js';
import { verifyPassword } from '../../security/password.js';
import { DiskBlobStore } from '../../storage/disk-blob-store.js';
import { openTestDatabase } from '../../test/test-database.js';
import type { Database } from '../client.js';
import {
  consolidatedCurveDetails,
  curveRecords,
  hkmControllerMapping,
  inspectionLogs,
  machineDashboardSummary,
  machineDetails,
  machineParts,
  stations,
  users,
} from '../schema.js';
import { buildDemoDataset } from './dataset.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts.js';
import { seedDemoData, type SeedSummary } from './index.js';
import { captureTimestamp, demoOverlayLines, drawDivisionScene, LetterMasks, REDUCED_PHOTO, renderDemoPhoto } from './photos.js';

const TODAY = '2025-03-15';

const TABLES = {
  users,
  curves: consolidatedCurveDetails,
  stations,
  machineParts,
  machineDashboardSummaries: machineDashboardSummary,
  curveRecords,
  machineDetails,
  hkmControllerMappings: hkmControllerMapping,
  inspections: inspectionLogs,
} satisfies Record<string, PgTable>;

describe('seedDemoData', () => {
  let database: Database;
  let blobDir: string;
  let blobs: DiskBlobStore;
  let summary: SeedSummary;

  const rowCount = async (table: PgTable, where?: SQL): Promise<number> => {
    const [row] = await database.db.select({ n: count() }).from(table).where(where);
    return row?.n ?? 0;
  };
  const allCounts = async () =>
    Object.fromEntries(
      await Promise.all(Object.entries(TABLES).map(async ([name, table]) => [name, await rowCount(table)] as const)),
    );

  beforeAll(async () => {
    database = await openTestDatabase();
    blobDir = await mkdtemp(path.join(os.tmpdir(), 'hkmi-seed-test-'));
    blobs = new DiskBlobStore(blobDir);
    summary = await seedDemoData(database.db, blobs, { today: TODAY });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  it('reports as inserted exactly the rows that are now in the database', async () => {
    const counts = await allCounts();
    for (const [name, n] of Object.entries(counts)) expect(summary[name as keyof SeedSummary], name).toBe(n);
    expect(summary.inspections).toBeGreaterThanOrEqual(40);
    expect(summary.photos).toBeGreaterThan(1);
  });

  it('creates at least 300 curves over exactly the five divisions, with unique HKM codes', async () => {
    const curves = await database.db.select().from(consolidatedCurveDetails);
    expect(curves.length).toBeGreaterThanOrEqual(300);
    expect(new Set(curves.map((c) => c.divisionRailway))).toEqual(new Set(DIVISIONS));
    const codes = curves.map((c) => c.hkmCode);
    expect(codes.every((code) => code !== null)).toBe(true);
    expect(new Set(codes).size).toBe(curves.length);
    for (const c of curves) {
      const span = (c.kmTo ?? 0) * 1000 + (c.metTo ?? 0) - ((c.kmFrom ?? 0) * 1000 + (c.metFrom ?? 0));
      expect(span, `${c.section} ${c.curveNumber} ${c.line}`).toBe(c.length);
      expect(c.length).toBeGreaterThanOrEqual(150);
      expect(c.length).toBeLessThanOrEqual(900);
    }
  });

  it('keeps FZR/NR single line and the other divisions on Up and Down', async () => {
    const curves = await database.db.select().from(consolidatedCurveDetails);
    const linesOf = (division: string) => new Set(curves.filter((c) => c.divisionRailway === division).map((c) => c.line));
    expect(linesOf('FZR/NR')).toEqual(new Set(['Single']));
    for (const division of DIVISIONS.filter((d) => d !== 'FZR/NR')) expect(linesOf(division)).toEqual(new Set(['Up', 'Down']));
  });

  it('lists the stations of every curve section, in order, including both stations each curve lies between', async () => {
    const curves = await database.db.select().from(consolidatedCurveDetails);
    const stationRows = await database.db.select().from(stations).orderBy(asc(stations.section), asc(stations.no));
    for (const section of new Set(curves.map((c) => c.section))) {
      const inSection = stationRows.filter((s) => s.section === section);
      expect(inSection.length, section).toBeGreaterThanOrEqual(5);
      expect(inSection.map((s) => s.no)).toEqual(inSection.map((_, i) => i + 1));
      for (const s of inSection) expect(s.stationCode).toMatch(/^[A-Z]{2,5}$/);
    }
    for (const c of curves) {
      const names = stationRows.filter((s) => s.section === c.section).map((s) => s.stationName);
      expect(names, `${c.section} ${c.curveNumber}`).toContain(c.station1);
      expect(names.indexOf(c.station2 ?? '')).toBe(names.indexOf(c.station1 ?? '') + 1);
    }
  });

  it('gives each section several SSEs to pick from, plus a few placeholder SSE rows', async () => {
    const curves = await database.db.select().from(consolidatedCurveDetails);
    const placeholders = curves.filter((c) => c.sse === 'SSE');
    expect(placeholders.length).toBeGreaterThan(0);
    expect(placeholders.length).toBeLessThan(curves.length / 20);
    const ssesOfBusySections = [...new Set(curves.map((c) => c.section))].map(
      (section) => new Set(curves.filter((c) => c.section === section && c.sse !== 'SSE').map((c) => c.sse)).size,
    );
    expect(ssesOfBusySections.filter((n) => n >= 2).length).toBeGreaterThan(ssesOfBusySections.length / 2);
  });

  it('creates the demo sign-ins with argon2id hashes of the demo password, the client bound to RTM/WR', async () => {
    const rows = await database.db.select().from(users);
    for (const account of DEMO_ACCOUNTS) {
      const user = rows.find((u) => u.employeeId === account.employeeId);
      expect(user?.role).toBe(account.role);
      expect(user?.passwordHash.startsWith('$argon2id$')).toBe(true);
      // The shared demo password is meant to stay: demo users are never asked to change it.
      expect(user?.mustChangePassword).toBe(false);
    }
    const client = rows.find((u) => u.role === 'Client');
    expect(client?.divisionAccess).toBe('RTM/WR');
    expect(await verifyPassword(client?.passwordHash ?? '', DEMO_PASSWORD)).toBe(true);
    expect(rows.filter((u) => u.role === 'Technician').length).toBeGreaterThanOrEqual(4);
  });

  it('stores a real JPEG photo for every inspection, the year before the window at the reduced size', async () => {
    const inspections = await database.db.select().from(inspectionLogs);
    const reduced = new Set(buildDemoDataset(TODAY).inspections.filter((i) => i.reducedPhoto).map((i) => i.fields.recordId));
    for (const i of inspections) {
      expect(i.imageHash, i.recordId).toMatch(/^[0-9a-f]{64}$/);
      const bytes = await blobs.read(i.imageHash ?? '');
      expect(bytes.length).toBe(i.imageSizeBytes);
      expect(bytes.length).toBeGreaterThanOrEqual(MIN_REAL_IMAGE_BYTES);
      expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      const size = reduced.has(i.recordId) ? REDUCED_PHOTO : { width: 1280, height: 720 };
      expect([i.imageWidth, i.imageHeight], i.recordId).toEqual([size.width, size.height]);
      expect(reduced.has(i.recordId)).toBe(i.date < '2025-01-14');
      expect(i.fileName).toBe(`inspection_${i.recordId}.jpg`);
      expect(i.imageUrl).toBe(`/api/inspections/${i.recordId}/image`);
      expect(i.imageData).toBeNull();
    }
  });

  it('gives every inspection a photo of its own', async () => {
    const inspections = await database.db.select().from(inspectionLogs);
    expect(new Set(inspections.map((i) => i.imageHash)).size).toBe(inspections.length);
    expect(summary.photos).toBe(summary.inspections);
  });

  it("draws each photo's overlay from its own record: the phone's lines for the stored fields, over its division's scene", async () => {
    const inspections = await database.db.select().from(inspectionLogs);
    const planned = new Map(buildDemoDataset(TODAY).inspections.map((i) => [i.fields.recordId, i]));
    const scenes = new Map<string, Awaited<ReturnType<typeof drawDivisionScene>>>(
      await Promise.all(
        DIVISIONS.flatMap((d) => (['full', 'reduced'] as const).map(async (size) => [`${d} ${size}`, await drawDivisionScene(d, size)] as const)),
      ),
    );
    const letters = new LetterMasks();
    // Every photo of the window, and one in ten of the year before it (redrawing them all takes long).
    for (const row of inspections.filter((r, i) => r.imageWidth === 1280 || i % 10 === 0)) {
      const inspection = planned.get(row.recordId);
      if (!inspection) throw new Error(`${row.recordId} is not in the demo dataset`);
      const takenAt = captureTimestamp(inspection);
      // Taken on the record's date, before it was submitted.
      expect(takenAt.slice(0, 10), row.recordId).toBe(row.date);
      expect(new Date(`${takenAt.replace(' ', 'T')}+05:30`).getTime()).toBeLessThanOrEqual(row.submittedAt.getTime());
      // The demo records carry no position, so the overlay says GPS is unavailable.
      expect(row.latitude).toBeNull();
      const lines = demoOverlayLines(inspection);
      expect(lines, row.recordId).toEqual(
        overlayLines({
          takenAt,
          type: row.type === 'CoF' ? 'CoF' : 'Service',
          divisionRailway: row.divisionRailway,
          section: row.section,
          curveNumber: row.curveNumber,
          line: row.line,
          cofValue: row.cofValue ?? '',
          technicianName: row.technicianName,
          technicianId: row.technicianId,
          position: null,
        }),
      );
      expect(lines.join('\n')).toContain(`Section: ${row.section}`);
      expect(lines.join('\n')).toContain(`Curve: ${row.curveNumber}`);
      // The stored bytes are exactly those lines burned into the division's scene.
      const scene = scenes.get(`${row.divisionRailway} ${inspection.reducedPhoto ? 'reduced' : 'full'}`);
      if (!scene) throw new Error(`No scene for ${row.divisionRailway}`);
      const redrawn = await renderDemoPhoto(scene, lines, letters);
      expect(createHash('sha256').update(redrawn).digest('hex'), row.recordId).toBe(row.imageHash);
    }
  }, 120_000);

  it('shows two records of a division the same scene, each with its own text in the band at the foot', async () => {
    const inspections = await database.db.select().from(inspectionLogs);
    const division = inspections[0]?.divisionRailway;
    const [a, b] = inspections.filter((i) => i.divisionRailway === division && i.imageWidth === 1280);
    if (!a?.imageHash || !b?.imageHash) throw new Error('Expected two records in one division');
    const pixelsOf = async (hash: string) => sharp(await blobs.read(hash)).raw().toBuffer({ resolveWithObject: true });
    const [first, second] = await Promise.all([pixelsOf(a.imageHash), pixelsOf(b.imageHash)]);
    const { bandTop } = overlayLayout(first.info.width, first.info.height, 5, () => 0);
    const rowBytes = first.info.width * first.info.channels;
    const meanDifference = (fromRow: number, toRow: number) => {
      let sum = 0;
      for (let i = fromRow * rowBytes; i < toRow * rowBytes; i++) sum += Math.abs((first.data[i] ?? 0) - (second.data[i] ?? 0));
      return sum / ((toRow - fromRow) * rowBytes);
    };
    // JPEG blocks that straddle the band's edge may differ a little: compare clear of them.
    expect(meanDifference(0, bandTop - 16)).toBeLessThan(0.5);
    expect(meanDifference(bandTop, first.info.height)).toBeGreaterThan(2);
  });

  it('records inspections on seeded curves, by demo technicians, in the year before today', async () => {
    const inspections = await database.db.select().from(inspectionLogs);
    const curves = await database.db.select().from(consolidatedCurveDetails);
    const technicians = new Map(
      (await database.db.select().from(users)).filter((u) => u.role === 'Technician').map((u) => [u.employeeId, u.name]),
    );
    expect(new Set(inspections.map((i) => i.type))).toEqual(new Set(['Service', 'CoF']));
    for (const i of inspections) {
      const curve = curves.find((c) => c.section === i.section && c.curveNumber === i.curveNumber && c.line === i.line);
      expect(curve?.divisionRailway, i.recordId).toBe(i.divisionRailway);
      expect(technicians.get(i.technicianId)).toBe(i.technicianName);
      expect(i.date < TODAY && i.date >= '2024-03-15').toBe(true);
      expect(i.recordId).toMatch(new RegExp(`^INS-${i.date.replaceAll('-', '')}-[0-9A-Z]{6}$`));
      if (i.type === 'CoF') {
        expect(i.cofValue).toMatch(/^0\.\d{2}$/);
        expect(['Far End', 'Near End']).toContain(i.location);
      } else {
        expect(['working-fine', 'part-broken', 'part-stolen', 'uninstall']).toContain(i.serviceUpdate);
        expect(typeof i.isMachineWorking).toBe('boolean');
        expect(Number(i.greaseDepth)).toBeGreaterThanOrEqual(0);
        expect(Number(i.greaseDepth)).toBeLessThanOrEqual(10);
      }
    }
  });

  it('offers broken and stolen parts only from the parts catalogue', async () => {
    const parts = await database.db.select().from(machineParts);
    const catalogue = new Set(parts.map((p) => `${p.category}|${p.itemName}`));
    const inspections = await database.db.select().from(inspectionLogs);
    for (const i of inspections.filter((r) => r.partCategory !== null)) {
      expect(catalogue.has(`${i.partCategory}|${i.partItemName}`), i.recordId).toBe(true);
    }
  });

  it('keeps the roll-out figures in order: scope, foundation, installed, commissioned', async () => {
    const rows = await database.db.select().from(machineDashboardSummary);
    expect(rows.map((r) => r.division).sort()).toEqual([...DIVISIONS].sort());
    for (const r of rows) {
      expect(r.scope).toBeGreaterThanOrEqual(r.foundationCompleted);
      expect(r.foundationCompleted).toBeGreaterThanOrEqual(r.machinesInstalled);
      expect(r.machinesInstalled).toBeGreaterThanOrEqual(r.machinesCommissioned);
      expect(r.machinesCommissioned).toBeGreaterThan(0);
    }
  });

  it("tells the schedule's story on first start: machines overdue, in time and never visited since installation, the rest 'No machine'", async () => {
    const { rows } = await listSchedule(database.db, {}, { today: TODAY, cofAlertThreshold: 0.25 }, { order: 'register' });
    const records = await database.db.select().from(curveRecords);
    const inspections = await database.db.select().from(inspectionLogs);
    const key = (c: { section: string; curveNumber: string; line: string }) => `${c.section}|${c.curveNumber}|${c.line}`;
    const installed = new Set(records.filter((r) => rolloutHasMachine({ machine: r.machineActual, commissioned: r.commissioned })).map(key));
    const serviced = new Set(inspections.filter((i) => i.type === 'Service').map(key));
    const withState = (state: string) => rows.filter((r) => r.serviceState === state);

    expect(withState('overdue').length).toBeGreaterThan(0);
    expect(withState('in-time').length + withState('due-soon').length).toBeGreaterThan(0);
    // Never done: machines the rollout sheet says are in, that nobody has visited since.
    const never = withState('never');
    expect(never.length).toBeGreaterThan(0);
    for (const r of never) expect(installed.has(key(r)) && !serviced.has(key(r)), key(r)).toBe(true);
    // No machine: neither the sheet nor a visit says there is one; never counted as "never done".
    const none = withState('no-machine');
    expect(none.length).toBeGreaterThan(0);
    for (const r of none) expect(installed.has(key(r)) || serviced.has(key(r)), key(r)).toBe(false);
    expect(rows.filter((r) => r.cofState === 'no-machine').length).toBe(none.length + withState('not-needed').length);
    // With a machine, "never done" is the exception, not most of the report.
    const withMachine = rows.length - none.length - withState('not-needed').length;
    expect(never.length).toBeLessThan(withMachine / 4);
  });

  it('builds the same data on every run', () => {
    expect(buildDemoDataset(TODAY)).toEqual(buildDemoDataset(TODAY));
  });

  it('inserts and changes nothing when run again, even on a later day', async () => {
    const before = await allCounts();
    const usersBefore = await database.db.select().from(users).orderBy(asc(users.id));
    const again = await seedDemoData(database.db, blobs, { today: '2025-03-16' });
    expect(Object.values(again).every((n) => n === 0)).toBe(true);
    expect(await allCounts()).toEqual(before);
    expect(await database.db.select().from(users).orderBy(asc(users.id))).toEqual(usersBefore);
  });
});
