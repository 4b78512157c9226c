import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { machineParts } from '../../db/schema.js';

export async function listPartCategories(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectDistinct({ category: machineParts.category }).from(machineParts).orderBy(asc(machineParts.category));
  return rows.map((r) => r.category);
}

export function listPartsOfCategory(db: DbOrTx, category: string) {
  return db
    .select({ id: machineParts.id, itemName: machineParts.itemName })
    .from(machineParts)
    .where(eq(machineParts.category, category))
    .orderBy(asc(machineParts.no), asc(machineParts.id));
}
