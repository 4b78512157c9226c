/**
 * The curve and station register as an admin keeps it, at a phone and a desktop viewport (the
 * spec files register.spec.ts and register.desktop.spec.ts run these): add, edit and delete
 * through the dialogs, and a sheet imported all or nothing. Each test works on sections of its
 * own, named with the project and the time, so parallel workers never meet.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, signIn } from './helpers.js';

async function openView(page: Page, tile: 'Curve Details' | 'Station Details' | null) {
  await signIn(page, ADMIN.employeeId);
  await page.getByRole('button', { name: 'Admin Panel' }).click();
  await page.getByRole('button', { name: /^Data Management/ }).click();
  await expect(page.getByRole('heading', { name: 'Data Management' })).toBeVisible();
  if (tile) {
    await page.getByRole('button', { name: tile }).click();
    await expect(page.getByRole('heading', { name: tile })).toBeVisible();
  }
}

/** The register as the API sees it, with the page's own session. */
async function apiTotal(page: Page, url: string): Promise<number> {
  const res = await page.request.get(url);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { total: number }).total;
}

async function search(page: Page, text: string) {
  await page.getByRole('searchbox').fill(text);
  await page.getByRole('button', { name: 'Search' }).click();
}

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.toUpperCase();

export function registerTests(project: 'phone' | 'desktop') {
  test('an admin adds, edits and deletes a curve through the dialogs', async ({ page }) => {
    const tag = stamp();
    // A space and a slash in the section: the edit and delete paths must carry them.
    const section = `E2E ${project} ${tag}/C`;
    const hkm = String(900_000 + Math.floor(Math.random() * 99_999));
    await openView(page, 'Curve Details');
    await expect(page.getByText(/^Showing first 20 of \d+ curve records$/)).toBeVisible();

    await page.getByRole('button', { name: 'Add New Curve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Curve' });
    await expect(dialog).toBeVisible();
    // Sent empty: the server's messages come back under their inputs.
    await dialog.getByRole('button', { name: 'Create Curve' }).click();
    await expect(dialog.getByText('Section is required')).toBeVisible();
    await expect(dialog.getByText('Curve number is required')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to create curve' })).toBeVisible();

    await dialog.getByLabel('No.').fill('1');
    await dialog.getByLabel('Division/Railway').selectOption('RTM/WR');
    await dialog.getByLabel('Section').fill(section);
    await dialog.getByLabel('Curve Number').fill('12/3');
    await dialog.getByLabel('Line').selectOption('Up');
    await dialog.getByLabel('HKM Code').fill(hkm);
    await dialog.getByLabel('Station 1').fill('रतलाम जं.');
    await dialog.getByRole('button', { name: 'Create Curve' }).click();
    await expect(page.getByText('Curve Created', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();

    await search(page, hkm);
    await expect(page.getByText('Showing 1 curve record', { exact: true })).toBeVisible();
    const card = page.getByRole('article', { name: `Curve 12/3 Up, ${section}` });
    await expect(card).toContainText('रतलाम जं.');

    await page.getByRole('button', { name: 'Edit curve 12/3 Up' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Curve Details' });
    await expect(edit.getByLabel('Section')).toHaveValue(section);
    await edit.getByLabel('Line').selectOption('Down');
    await edit.getByLabel('SSE').fill('SSE/P.Way/E2E');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Curve Updated', { exact: true })).toBeVisible();
    const edited = page.getByRole('article', { name: `Curve 12/3 Down, ${section}` });
    await expect(edited).toContainText('SSE/P.Way/E2E');
    expect(await apiTotal(page, `/api/consolidated-curves?q=${hkm}&sse=${encodeURIComponent('SSE/P.Way/E2E')}`)).toBe(1);

    await page.getByRole('button', { name: 'Delete curve 12/3 Down' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`Are you sure you want to delete curve 12/3 in section ${section}?`);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Curve Deleted', { exact: true })).toBeVisible();
    await expect(page.getByText('No curves match the selected filters')).toBeVisible();
    expect(await apiTotal(page, `/api/consolidated-curves?q=${hkm}`)).toBe(0);
  });

  test('an admin adds, edits and deletes a station through the dialogs', async ({ page }) => {
    const tag = stamp();
    const section = `E2E-${project}-${tag}-S`;
    await openView(page, 'Station Details');

    await page.getByRole('button', { name: 'Add New Station' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Station' });
    await dialog.getByLabel('No.').fill('4');
    await dialog.getByLabel('Station Code').fill(`Q${tag.slice(-4)}`);
    await dialog.getByLabel('Station Name').fill('Quarry Halt');
    await dialog.getByLabel('Division/Railway').selectOption('FZR/NR');
    await dialog.getByLabel('Section').fill(section);
    await dialog.getByRole('button', { name: 'Create Station' }).click();
    await expect(page.getByText('Station Created', { exact: true })).toBeVisible();

    // The same code again in the same section: the server's 409 shows under the code.
    await page.getByRole('button', { name: 'Add New Station' }).click();
    const again = page.getByRole('dialog', { name: 'Add New Station' });
    await again.getByLabel('No.').fill('5');
    await again.getByLabel('Station Code').fill(`Q${tag.slice(-4)}`);
    await again.getByLabel('Station Name').fill('Quarry Halt Two');
    await again.getByLabel('Division/Railway').selectOption('FZR/NR');
    await again.getByLabel('Section').fill(section);
    await again.getByRole('button', { name: 'Create Station' }).click();
    await expect(again.getByText(`Station code Q${tag.slice(-4)} already exists in section ${section}`)).toBeVisible();
    await again.getByRole('button', { name: 'Cancel' }).click();

    await search(page, 'Quarry Halt');
    await page.getByRole('button', { name: 'Edit station Quarry Halt' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Station Details' });
    await edit.getByLabel('Station Name').fill('Quarry Halt Jn');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Station Updated', { exact: true })).toBeVisible();
    await search(page, `Q${tag.slice(-4)}`);
    await expect(page.getByRole('article', { name: `Station Quarry Halt Jn (Q${tag.slice(-4)})` })).toBeVisible();

    await page.getByRole('button', { name: 'Delete station Quarry Halt Jn' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Are you sure you want to delete station Quarry Halt Jn at No. 4?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Station Deleted', { exact: true })).toBeVisible();
    await expect(page.getByText('No stations match the selected filters')).toBeVisible();
    expect(await apiTotal(page, `/api/admin/stations?section=${encodeURIComponent(section)}`)).toBe(0);
  });

  test('a station sheet imports all or nothing, then once, then changes nothing', async ({ page }) => {
    const tag = stamp();
    const section = `E2E-IMP-${project}-${tag}`;
    const header = 'No,Station Name,Station Code,Section,Division/Railway,Remarks';
    const good = [
      header,
      `1,"Ratlam Jn, Platform 4",RT${tag.slice(-3)},${section},RTM/WR,keep`,
      `2,बांगरोद,BG${tag.slice(-3)},${section},RTM/WR,`,
      `3,"Runija ""Halt""",RN${tag.slice(-3)},${section},RTM/WR,`,
    ].join('\r\n');
    const bad = good.replace(`3,"Runija ""Halt""",RN${tag.slice(-3)},${section},RTM/WR`, `3,"Runija ""Halt""",RN${tag.slice(-3)},${section},XX/YY`);
    const stationsOfSection = `/api/admin/stations?section=${encodeURIComponent(section)}`;

    await openView(page, null);
    const importFile = async (name: string, csv: string) => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Import Station Data' }).click();
      await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`) });
      const preview = page.getByRole('dialog', { name: 'Import preview' });
      await expect(preview).toBeVisible();
      return preview;
    };

    // One bad row: the row is named and nothing can be imported.
    const refused = await importFile('stations-bad.csv', bad);
    await expect(refused.getByRole('alert')).toContainText('1 row is not valid');
    const problem = refused.getByRole('row').filter({ hasText: 'Division/Railway must be one of' });
    await expect(problem.getByRole('cell').first()).toHaveText('4');
    await expect(refused.getByText('Remarks')).toBeVisible();
    await expect(refused.getByRole('button', { name: /^Import \d+ records$/ })).toBeDisabled();
    await refused.getByRole('button', { name: 'Cancel' }).click();
    expect(await apiTotal(page, stationsOfSection)).toBe(0);

    // The corrected file: three to add.
    const first = await importFile('stations.csv', good);
    await expect(first.getByRole('definition').nth(0)).toHaveText('3');
    await first.getByRole('button', { name: 'Import 3 records' }).click();
    await expect(page.getByText('Import Successful', { exact: true })).toBeVisible();
    await expect(page.getByText('Imported 3 records successfully')).toBeVisible();
    expect(await apiTotal(page, stationsOfSection)).toBe(3);
    const names = await (await page.request.get(stationsOfSection)).json();
    expect((names as { stations: { stationName: string }[] }).stations.map((s) => s.stationName)).toEqual([
      'Ratlam Jn, Platform 4',
      'बांगरोद',
      'Runija "Halt"',
    ]);

    // The same file again: every row already there, nothing changes.
    const second = await importFile('stations.csv', good);
    await expect(second.getByText('The register already holds every one of them')).toBeVisible();
    await expect(second.getByRole('definition').nth(0)).toHaveText('0');
    await expect(second.getByRole('definition').nth(1)).toHaveText('0');
    await expect(second.getByRole('definition').nth(2)).toHaveText('3');
    await second.getByRole('button', { name: 'Import 3 records' }).click();
    await expect(page.getByText('Imported 3 records successfully')).toBeVisible();
    expect(await (await page.request.get(stationsOfSection)).json()).toEqual(names);
  });
}
