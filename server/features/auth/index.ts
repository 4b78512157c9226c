/** What other features may use of sign-in: the throttle's keys and the trusted browsers of a user. */
export { clearFailures, employeeKey } from './login-throttle.js';
export { forgetDevicesOfUser } from './trusted-devices.js';
