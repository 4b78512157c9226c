/**
 * Metrics for Prometheus at GET /metrics, behind METRICS_TOKEN (README, 'Monitoring'): the
 * app makes one AppMetrics per instance, hands its counters to the features that count
 * (uploads, reports, the photo worker) and registers the route and its request hook.
 */
export { createAppMetrics, type AppMetrics, UNMATCHED_ROUTE } from './app-metrics.js';
export { metricsFeature, type MetricsFeatureOptions } from './routes.js';
