import { z } from 'zod';

export const stationSchema = z.object({
  id: z.number().int(),
  no: z.number().int(),
  stationName: z.string(),
  stationCode: z.string(),
  section: z.string(),
  divisionRailway: z.string(),
});
export type Station = z.infer<typeof stationSchema>;
export const stationListQuerySchema = z.object({
  section: z.string({ error: 'section is required' }).trim().min(1, 'section is required').max(100, 'section must be at most 100 characters'),
});
export const stationListResponseSchema = z.object({ stations: z.array(stationSchema) });

export const partCategoriesResponseSchema = z.object({ categories: z.array(z.string()) });
export const partListQuerySchema = z.object({
  category: z.string({ error: 'category is required' }).trim().min(1, 'category is required').max(100, 'category must be at most 100 characters'),
});
export const partListResponseSchema = z.object({ parts: z.array(z.object({ id: z.number().int(), itemName: z.string() })) });

export const technicianSchema = z.object({ employeeId: z.string(), name: z.string() });
export type Technician = z.infer<typeof technicianSchema>;
export const technicianListResponseSchema = z.object({ technicians: z.array(technicianSchema) });
