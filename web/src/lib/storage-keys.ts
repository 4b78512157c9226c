/** Every browser-storage key the app uses, in one place so nothing collides or drifts. */
export { USER_STORAGE_KEY } from '../../../common/constants.js';

/** sessionStorage: the inspection entry being filled in (data entry -> camera). */
export const INSPECTION_ENTRY_KEY = 'hkmi_inspection_entry';

/** sessionStorage: the result of the last submission, read by the success screen. */
export const SUBMISSION_RESULT_KEY = 'hkmi_submission_result';

/** localStorage: when the reference data (curves, stations, parts) was last copied to the device in full. */
export const REFERENCE_WARMED_AT_KEY = 'hkmi_reference_warmed_at';

/** localStorage: the section the technician chose for the due list on /purpose ('' = their recent sections). */
export const DUE_LIST_SECTION_KEY = 'hkmi_due_list_section';

/** localStorage: the interface language chosen on this device ('en' | 'hi'); holds before sign-in and offline. */
export const LANGUAGE_KEY = 'hkmi_language';

/** localStorage: '1' while the device's language was chosen signed out (or offline) and is not yet saved on the user. */
export const LANGUAGE_UNSAVED_KEY = 'hkmi_language_unsaved';
