import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'demo1234';
export const ADMIN = { employeeId: 'ADM1001', name: 'Anita Deshmukh' };
export const TECHNICIAN = { employeeId: 'TEC2001', name: 'Ravi Kumar Meena' };
export const CLIENT = { employeeId: 'CLI3001', division: 'RTM/WR' };

/** Signs in through the login screen, as a person would. */
export async function signIn(page: Page, employeeId: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Employee ID').fill(employeeId);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

export async function expectPath(page: Page, path: string) {
  await expect(page).toHaveURL((url) => url.pathname === path);
}
