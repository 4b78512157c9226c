import { test } from '@playwright/test';
import { analyticsTests } from './analytics-flows.js';

test.use({ viewport: { width: 1280, height: 800 } });

analyticsTests('desktop');
