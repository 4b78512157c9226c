import { test } from '@playwright/test';
import { analyticsTests } from './analytics-flows.js';

test.use({ viewport: { width: 390, height: 844 } });

analyticsTests('phone');
