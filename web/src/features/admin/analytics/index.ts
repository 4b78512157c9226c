export { AnalyticsView } from './analytics-view.js';
