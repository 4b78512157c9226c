/**
 * Every fixed text of the reports (PDF and Excel) in Hindi and English, the railway's
 * bilingual form (Official Languages Act, section 3(3)): headings, titles, column titles,
 * labels and fixed sentences, printed Hindi first then English, "निरीक्षण रिपोर्ट / Inspection
 * Report". A text is a pair, and the type needs both halves, so the two languages cannot drift
 * apart; a report prints a pair only through the helpers below. The Hindi follows
 * docs/glossary.md. The English halves are the spec's texts, to the letter.
 *
 * Data are never translated: division codes, section and station names, curve numbers, part
 * names, people's names and remarks print as stored. So do the values the product stores in
 * English where they fill a data column (a visit's service update, the line, Yes/No of a
 * record): an officer filters and sorts those columns by the stored value. Where such a value
 * is a fixed text of the report (a cover's "All divisions", the report's type), it is a pair.
 */

/** One fixed text in both languages. */
export interface Bilingual {
  readonly hi: string;
  readonly en: string;
}

/** Between the Hindi and the English of one text. */
export const BILINGUAL_SEPARATOR = ' / ';
/** Between them in a sheet's tab name, where '/' is not allowed. */
export const SHEET_TITLE_SEPARATOR = ' | ';
/** Excel's longest sheet name. */
export const SHEET_TITLE_MAX = 31;

/** "हिंदी / English". A text both languages write alike (SSE, CoF, ID) is printed once. */
export function both(text: Bilingual): string {
  return text.hi === text.en ? text.en : `${text.hi}${BILINGUAL_SEPARATOR}${text.en}`;
}

/** A long sentence: the Hindi on one line, the English under it. */
export function stacked(text: Bilingual): string {
  return text.hi === text.en ? text.en : `${text.hi}\n${text.en}`;
}

/** A sheet's tab: "सारांश | Summary" (Excel forbids '/' there and cuts a name at 31 characters). */
export function sheetTitle(text: Bilingual): string {
  const title = text.hi === text.en ? text.en : `${text.hi}${SHEET_TITLE_SEPARATOR}${text.en}`;
  if (title.length > SHEET_TITLE_MAX) throw new Error(`sheet title "${title}" is longer than ${SHEET_TITLE_MAX} characters`);
  return title;
}

/** Data (a division code, a name) as a pair: the same in both languages. */
export const asStored = (value: string): Bilingual => ({ hi: value, en: value });

/** Pairs and data joined part by part in each language: "RTM/WR, सभी तिथियाँ / RTM/WR, all dates". */
export function joined(separator: string, ...parts: readonly (Bilingual | string)[]): Bilingual {
  const pairs = parts.map((part) => (typeof part === 'string' ? asStored(part) : part));
  return { hi: pairs.map((p) => p.hi).join(separator), en: pairs.map((p) => p.en).join(separator) };
}

/** A bilingual label in front of data: "रिपोर्ट ID / Report ID: 42" (the data once). */
export const labelled = (label: Bilingual, value: string, separator = ': ') => `${both(label)}${separator}${value}`;

const pair = (hi: string, en: string): Bilingual => ({ hi, en });

/** The fixed words and sentences, by key. */
export const REPORT_WORDS = {
  // What every report names.
  division: pair('मंडल', 'Division'),
  section: pair('खंड', 'Section'),
  curve: pair('कर्व', 'Curve'),
  curves: pair('कर्व', 'Curves'),
  line: pair('लाइन', 'Line'),
  sse: pair('SSE', 'SSE'),
  den: pair('DEN', 'DEN'),
  aen: pair('AEN', 'AEN'),
  cof: pair('CoF', 'CoF'),
  service: pair('सर्विस', 'Service'),
  id: pair('ID', 'ID'),
  technician: pair('तकनीशियन', 'Technician'),
  employeeId: pair('कर्मचारी ID', 'Employee ID'),
  technicianId: pair('तकनीशियन ID', 'Technician ID'),
  name: pair('नाम', 'Name'),
  date: pair('दिनांक', 'Date'),
  records: pair('रिकॉर्ड', 'Records'),
  recordId: pair('रिकॉर्ड ID', 'Record ID'),
  report: pair('रिपोर्ट', 'Report'),
  reportId: pair('रिपोर्ट ID', 'Report ID'),
  period: pair('अवधि', 'Period'),
  madeBy: pair('तैयारकर्ता', 'Made by'),
  madeAt: pair('तैयार करने का समय', 'Made at'),
  asOf: pair('स्थिति दिनांक', 'As of'),
  location: pair('स्थान', 'Location'),
  km: pair('किमी', 'Km'),
  poles: pair('पोल', 'Poles'),
  stations: pair('स्टेशन', 'Stations'),
  visits: pair('विज़िट', 'Visits'),
  readings: pair('रीडिंग', 'Readings'),
  median: pair('माध्यिका', 'Median'),
  percentile90: pair('90वाँ प्रतिशतक', '90th percentile'),
  aboveThreshold: pair('सीमा से ऊपर', 'Above threshold'),
  overdue: pair('अतिदेय', 'Overdue'),
  category: pair('श्रेणी', 'Category'),
  item: pair('पुर्जे का नाम', 'Item'),
  broken: pair('टूटे', 'Broken'),
  stolen: pair('चोरी हुए', 'Stolen'),
  faults: pair('खराबियाँ', 'Faults'),
  cumulativeShare: pair('संचयी प्रतिशत', 'Cumulative share'),
  partBroken: pair('पुर्जा टूटा', 'Part broken'),
  partStolen: pair('पुर्जा चोरी हुआ', 'Part stolen'),
  machineNotWorking: pair('मशीन काम नहीं कर रही', 'Machine not working'),
  serviceVisits: pair('सर्विस विज़िट', 'Service visits'),
  medianDaysToClose: pair('बंद होने में लगे दिन (माध्यिका)', 'Median days to close'),
  followUpActions: pair('अनुवर्ती कार्रवाइयाँ', 'Follow-up actions'),
  yes: pair('हाँ', 'Yes'),
  no: pair('नहीं', 'No'),
  all: pair('सभी', 'All'),
  allDivisions: pair('सभी मंडल', 'All divisions'),
  allDivisionsLower: pair('सभी मंडल', 'all divisions'),
  allSections: pair('सभी खंड', 'All sections'),
  allSectionsLower: pair('सभी खंड', 'all sections'),
  allSses: pair('सभी SSE', 'All SSEs'),
  allTechnicians: pair('सभी तकनीशियन', 'All technicians'),
  allDates: pair('सभी तिथियाँ', 'all dates'),
  noneInRange: pair('इस अवधि में कुछ नहीं।', 'None in the range.'),
  noSseInRegister: pair('रजिस्टर में कोई SSE नहीं', 'No SSE in the register'),

  // The inspection report (PDF Reports).
  serviceInspectionReport: pair('सर्विस निरीक्षण रिपोर्ट', 'Service inspection report'),
  cofMeasurementReport: pair('CoF माप रिपोर्ट', 'CoF measurement report'),
  serviceType: pair('निरीक्षण का प्रकार', 'Service type'),
  order: pair('क्रम', 'Order'),
  orderByCurve: pair('खंड, कर्व और लाइन के क्रम में, फिर दिनांक के अनुसार', 'By section, curve and line, then date'),
  orderNewest: pair('नवीनतम पहले (विज़िट की दिनांक, फिर दर्ज करने का समय)', 'Newest first (visit date, then time stored)'),
  recordsUpTo: pair('इस समय तक के रिकॉर्ड', 'Records up to'),
  recordsPerSection: pair('खंडवार रिकॉर्ड', 'Records per section'),
  recordsPerTechnician: pair('तकनीशियनवार रिकॉर्ड', 'Records per technician'),
  cofReadings: pair('CoF रीडिंग', 'CoF readings'),
  mean: pair('औसत', 'Mean'),
  lowest: pair('न्यूनतम', 'Lowest'),
  highest: pair('अधिकतम', 'Highest'),
  cofValue: pair('CoF मान', 'CoF value'),
  serviceUpdate: pair('सर्विस अपडेट', 'Service update'),
  part: pair('पुर्जा', 'Part'),
  machineWorking: pair('मशीन काम कर रही है', 'Machine working'),
  greaseDepth: pair('ग्रीस की गहराई', 'Grease depth'),
  curveAndLine: pair('कर्व और लाइन', 'Curve / line'),
  stored: pair('दर्ज किया गया', 'Stored'),
  photoMissing: pair('फ़ोटो उपलब्ध नहीं: इसकी फ़ाइल स्टोरेज में नहीं है या पढ़ी नहीं जा सकती', 'Photo not available: its file is missing or unreadable in storage'),
  noPhoto: pair('कोई फ़ोटो दर्ज नहीं की गई', 'No photo was recorded'),

  // The Service Reports table.
  serviceReport: pair('सर्विस रिपोर्ट', 'Service report'),
  needingAction: pair('कार्रवाई आवश्यक', 'Needing action'),
  byUpdate: pair('अपडेट के अनुसार', 'By update'),
  notStated: pair('नहीं बताया गया', 'Not stated'),
  serviceVisitsNewestFirst: pair('सर्विस विज़िट, नवीनतम पहले', 'Service visits, newest first'),
  partCategoryItem: pair('पुर्जा (श्रेणी – नाम)', 'Part (category – item)'),
  greaseDepthCm: pair('ग्रीस की गहराई (सेमी)', 'Grease depth (cm)'),

  // The SSE CoF Measurement table.
  sseCofReport: pair('SSE CoF माप रिपोर्ट', 'SSE CoF measurement report'),
  measurements: pair('माप', 'Measurements'),
  meanLowestHighest: pair('औसत, न्यूनतम, अधिकतम', 'Mean / lowest / highest'),
  measurementsOldestFirst: pair('माप, सबसे पुराने पहले', 'Measurements, oldest first'),

  // The analytics report and its charts' workbooks.
  analytics: pair('विश्लेषण', 'Analytics'),
  filtersAndScope: pair('फ़िल्टर और दायरा', 'Filters and scope'),
  range: pair('दिनांक अवधि', 'Range'),
  by: pair('समूहन', 'By'),
  month: pair('माह', 'Month'),
  week: pair('सप्ताह', 'Week'),
  headlineFigures: pair('मुख्य आँकड़े', 'Headline figures'),
  serviceCompliance: pair('सर्विस अनुपालन', 'Service compliance'),
  cofCompliance: pair('CoF अनुपालन', 'CoF compliance'),
  cofMedianP90: pair('CoF माध्यिका, 90वाँ प्रतिशतक', 'CoF median / 90th pct'),
  partsBroken: pair('टूटे पुर्जे', 'Parts broken'),
  partsStolen: pair('चोरी हुए पुर्जे', 'Parts stolen'),
  machinesNotWorking: pair('काम न कर रही मशीनें', 'Machines not working'),
  actionsOpenOverdue: pair('खुली और अतिदेय कार्रवाइयाँ', 'Actions open / overdue'),
  openedClosed: pair('खोली और बंद की गईं', 'Opened / closed'),
  complianceNote: pair(
    'अनुपालन अवधि के अंत में (और चार्ट में हर अवधि के अंत में) लिया जाता है: मशीन वाले कर्व में से उनका प्रतिशत जिनकी पिछली विज़िट उनके अंतराल के भीतर है। रीडिंग, खराबियाँ और विज़िट वे हैं जिनकी दिनांक इस अवधि में है।',
    'Compliance is taken at the end of the range (and of each period in the charts): of the curves with a machine, the share whose last visit is within its interval. Readings, faults and visits are those dated in the range.',
  ),
  noCurveOnSchedule: pair('– (शेड्यूल पर कोई कर्व नहीं)', '– (no curve on the schedule)'),
  scheduleCompliance: pair('शेड्यूल अनुपालन', 'Schedule compliance'),
  complianceChartTitle: pair(
    'हर अवधि के अंत में अपने अंतराल के भीतर कर्व (सर्विस 15 दिन, CoF 30 दिन)',
    'Curves within their interval at each period’s end (Service 15 days, CoF 30 days)',
  ),
  byPeriod: pair('अवधिवार', 'By period'),
  bySection: pair('खंडवार', 'By section'),
  bySse: pair('SSE-वार', 'By SSE'),
  serviceWithin: pair('सर्विस अंतराल में', 'Service within'),
  serviceShare: pair('सर्विस प्रतिशत', 'Service share'),
  serviceOverdue: pair('सर्विस अतिदेय', 'Service overdue'),
  neverServiced: pair('कभी सर्विस नहीं हुई', 'Never serviced'),
  cofWithin: pair('CoF अंतराल में', 'CoF within'),
  cofShare: pair('CoF प्रतिशत', 'CoF share'),
  cofOverdue: pair('CoF अतिदेय', 'CoF overdue'),
  friction: pair('घर्षण', 'Friction'),
  frictionChartTitle: pair('प्रति अवधि CoF रीडिंग: माध्यिका और 90वाँ प्रतिशतक', 'CoF readings per period: median and 90th percentile'),
  bySectionHighestMedian: pair('अवधि में खंडवार, सबसे अधिक माध्यिका पहले', 'By section over the range, highest median first'),
  readingsOldestFirst: pair('रीडिंग, सबसे पुरानी पहले', 'Readings, oldest first'),
  noRisingCurve: pair('किसी कर्व का घर्षण उसकी पिछली तीन रीडिंग में नहीं बढ़ा।', 'No curve’s friction rises over its last three readings.'),
  machinesAndParts: pair('मशीनें और पुर्जे', 'Machines and parts'),
  faultsChartTitle: pair('सर्विस विज़िट में बताई गई खराबियाँ, प्रति अवधि', 'Faults reported by Service visits, per period'),
  notWorking: pair('काम नहीं कर रही', 'Not working'),
  workingRate: pair('कार्यशील दर', 'Working rate'),
  partsMostFaultsFirst: pair('पुर्जे, सबसे अधिक खराबी पहले', 'Parts, most faults first'),
  partCategories: pair('पुर्जों की श्रेणियाँ', 'Part categories'),
  openedInTheRange: pair('अवधि में खोली गईं', 'Opened in the range'),
  closedInTheRange: pair('अवधि में बंद की गईं', 'Closed in the range'),
  grease: pair('ग्रीस', 'Grease'),
  greaseChartTitle: pair('सर्विस विज़िट पर पढ़ी गई ग्रीस की गहराई: प्रति अवधि माध्यिका (सेमी)', 'Grease depth read at Service visits: median per period (cm)'),
  medianDepthCm: pair('माध्यिका गहराई (सेमी)', 'Median depth (cm)'),
  bySectionOverRange: pair('अवधि में खंडवार', 'By section over the range'),
  dryCurves: pair(
    'सूखे रहने वाले कर्व: पिछली दो सर्विस विज़िट पर गहराई 0 (रुकी हुई या खाली मशीन)',
    'Curves that stay dry: depth 0 at their last two Service visits (a blocked or empty machine)',
  ),
  lastTwoVisits: pair('पिछली दो विज़िट', 'Last two visits'),
  noDryCurve: pair('किसी कर्व पर पिछली दो विज़िट में गहराई 0 नहीं पढ़ी गई।', 'No curve read a depth of 0 at its last two visits.'),
  fieldWork: pair('फ़ील्ड कार्य', 'Field work'),
  visitsChartTitle: pair('प्रति अवधि विज़िट, सभी तकनीशियन', 'Visits per period, all technicians'),
  perTechnician: pair('तकनीशियनवार, सबसे अधिक विज़िट पहले', 'Per technician, most visits first'),
  noVisitsInRange: pair('इस अवधि में कोई विज़िट नहीं।', 'No visits in the range.'),
  start: pair('आरंभ', 'Start'),
  end: pair('अंत', 'End'),
  shareAboveThreshold: pair('सीमा से ऊपर प्रतिशत', 'Share above threshold'),
  machineWorkingRate: pair('मशीन कार्यशील दर', 'Machine working rate'),
  openedInRange: pair('अवधि में खोली गईं', 'Opened in range'),
  closedInRange: pair('अवधि में बंद की गईं', 'Closed in range'),
  visitBefore: pair('उससे पहले की विज़िट', 'Visit before'),
  lastVisit: pair('पिछली विज़िट', 'Last visit'),
  chart: pair('चार्ट', 'Chart'),
  shares: pair('प्रतिशत', 'Shares'),
  sharesNote: pair('प्रतिशत में दिखाए गए; सेल में 0-1 की संख्याएँ हैं', 'Shown as percentages; the cells hold 0-1 numbers'),
  frictionCofReadings: pair('घर्षण (CoF रीडिंग)', 'Friction (CoF readings)'),
  machineFaults: pair('मशीन की खराबियाँ', 'Machine faults'),
  partsBrokenOrStolen: pair('टूटे या चोरी हुए पुर्जे', 'Parts broken or stolen'),

  // The About sheet every workbook ends with.
  aboutItem: pair('मद', 'Item'),
  aboutValue: pair('मान', 'Value'),

  // The curve maintenance workbook (Excel Reports).
  lastService: pair('पिछली सर्विस', 'Last service'),
  lastCof: pair('पिछला CoF', 'Last CoF'),
  lastCofValue: pair('पिछला CoF मान', 'Last CoF value'),
  lastTechnician: pair('पिछला तकनीशियन', 'Last technician'),
  daysSince: pair('बीते दिन', 'Days since'),
  dueDate: pair('देय दिनांक', 'Due date'),
  daysOverdue: pair('अतिदेय दिन', 'Days overdue'),
  status: pair('स्थिति', 'Status'),
  serviceDueAll: pair('सर्विस देय (सभी)', 'Service due (all)'),
  serviceDueSoon: pair('सर्विस जल्द देय', 'Service due soon'),
  serviceNeverDone: pair('सर्विस कभी नहीं हुई', 'Service never done'),
  machineUninstalled: pair('मशीन हटाई गई', 'Machine uninstalled'),
  noMachine: pair('मशीन नहीं', 'No machine'),
  cofDueAll: pair('CoF देय (सभी)', 'CoF due (all)'),
  cofDueSoon: pair('CoF जल्द देय', 'CoF due soon'),
  cofNeverDone: pair('CoF कभी नहीं हुआ', 'CoF never done'),
  cofHigh: pair('CoF उच्च', 'CoF high'),
  total: pair('कुल', 'Total'),
  scope: pair('दायरा', 'Scope'),
  rule: pair('नियम', 'Rule'),
  noMachineNote: pair(
    'रोलआउट शीट पर कोई मशीन स्थापित या चालू (कमीशन) नहीं और कोई सर्विस विज़िट नहीं: किसी शेड्यूल पर नहीं',
    'no machine installed or commissioned on the rollout sheet and no Service visit: on neither schedule',
  ),

  // The follow-up actions' sheet (its columns are the actions feature's, in English: see ACTION_COLUMN_WORDS).
  fault: pair('खराबी', 'Fault'),
  allFaults: pair('सभी खराबियाँ', 'All faults'),
  state: pair('स्थिति', 'State'),
  openAndClosed: pair('खुली और बंद', 'Open and closed'),
  open: pair('खुली', 'Open'),
  closed: pair('बंद', 'Closed'),
  overdueOnly: pair('केवल अतिदेय', 'Overdue only'),
  actionCount: pair('कार्रवाइयाँ', 'Actions'),

  // The machine report.
  number: pair('क्र.', 'No.'),
  phase: pair('फेज़', 'Phase'),
  foundation: pair('नींव', 'Foundation'),
  machineInstalled: pair('मशीन स्थापित', 'Machine installed'),
  commissioned: pair('चालू (कमीशन)', 'Commissioned'),
  hkmCode: pair('HKM कोड', 'HKM code'),
  controllerNumber: pair('कंट्रोलर नंबर', 'Controller number'),
  stages: pair('चरण', 'Stages'),
  stagesNote: pair(
    "दिनांक वह दिन है जब चरण पूरा हुआ; 'Done' बिना दिनांक के चिह्नित किया गया; 'Pending' अभी पूरा नहीं हुआ",
    "A date is the day the stage was done; 'Done' was ticked without a date; 'Pending' is not done yet",
  ),
} as const satisfies Record<string, Bilingual>;

export type ReportWord = keyof typeof REPORT_WORDS;

/** A fixed text by its key, "हिंदी / English". */
export const word = (key: ReportWord): string => both(REPORT_WORDS[key]);

/** The columns of the follow-up actions' sheet (server/features/actions/sheet.ts), by their English header. */
export const ACTION_COLUMN_WORDS: Readonly<Record<string, Bilingual>> = {
  Action: pair('कार्रवाई', 'Action'),
  Fault: REPORT_WORDS.fault,
  State: REPORT_WORDS.state,
  Severity: pair('गंभीरता', 'Severity'),
  Division: REPORT_WORDS.division,
  Section: REPORT_WORDS.section,
  Curve: REPORT_WORDS.curve,
  Line: REPORT_WORDS.line,
  SSE: REPORT_WORDS.sse,
  Reported: pair('सूचित खराबी', 'Reported'),
  Reports: pair('सूचनाएँ', 'Reports'),
  Opened: pair('खोली गई', 'Opened'),
  Due: pair('देय', 'Due'),
  Overdue: REPORT_WORDS.overdue,
  'Days open': pair('खुले दिन', 'Days open'),
  'Opened by record': pair('खोलने वाला रिकॉर्ड', 'Opened by record'),
  Closed: REPORT_WORDS.closed,
  'Closed by record': pair('बंद करने वाला रिकॉर्ड', 'Closed by record'),
  'Closed by': pair('बंद करने वाले', 'Closed by'),
  Note: pair('टिप्पणी', 'Note'),
};

/** The register's sheets (server/features/register/columns.ts), by their English header: the importer reads the English half. */
export const REGISTER_COLUMN_WORDS: Readonly<Record<string, Bilingual>> = {
  No: pair('क्र.', 'No'),
  'HKM Code': pair('HKM कोड', 'HKM Code'),
  'Division/Railway': pair('मंडल/रेलवे', 'Division/Railway'),
  Section: REPORT_WORDS.section,
  'Curve Number': pair('कर्व नंबर', 'Curve Number'),
  Line: REPORT_WORDS.line,
  'Km From': pair('किमी से', 'Km From'),
  'Met From': pair('मीटर से', 'Met From'),
  'Km To': pair('किमी तक', 'Km To'),
  'Met To': pair('मीटर तक', 'Met To'),
  Length: pair('लंबाई', 'Length'),
  'Station 1': pair('स्टेशन 1', 'Station 1'),
  'Station 2': pair('स्टेशन 2', 'Station 2'),
  Degree: pair('डिग्री', 'Degree'),
  DEN: REPORT_WORDS.den,
  AEN: REPORT_WORDS.aen,
  SSE: REPORT_WORDS.sse,
  Comments: pair('टिप्पणी', 'Comments'),
  'Station Name': pair('स्टेशन का नाम', 'Station Name'),
  'Station Code': pair('स्टेशन कोड', 'Station Code'),
};

/**
 * The sheets' tab names: at most 31 characters together, so a long Hindi term takes the short
 * form the glossary gives (कार्रवाई for अनुवर्ती कार्रवाई).
 */
export const SHEET_TITLES = {
  summary: pair('सारांश', 'Summary'),
  serviceDue: pair('सर्विस देय', 'Service due'),
  cofDue: pair('CoF देय', 'CoF due'),
  actions: pair('कार्रवाइयाँ', 'Actions'),
  about: pair('विवरण', 'About'),
  machines: pair('मशीनें', 'Machines'),
  byPeriod: REPORT_WORDS.byPeriod,
  bySection: REPORT_WORDS.bySection,
  bySse: REPORT_WORDS.bySse,
  risingCurves: pair('बढ़ते कर्व', 'Rising curves'),
  followUpActions: pair('कार्रवाइयाँ', 'Follow-up actions'),
  items: pair('पुर्जे', 'Items'),
  categories: pair('श्रेणियाँ', 'Categories'),
  dryCurves: pair('सूखे कर्व', 'Dry curves'),
  technicians: pair('तकनीशियन', 'Technicians'),
  curveDetails: pair('कर्व विवरण', 'Curve Details'),
  stationDetails: pair('स्टेशन विवरण', 'Station Details'),
} as const satisfies Record<string, Bilingual>;

export type SheetTitle = keyof typeof SHEET_TITLES;

/** A sheet's tab name by its key: "सारांश | Summary". */
export const sheetNamed = (key: SheetTitle): string => sheetTitle(SHEET_TITLES[key]);

/** The register export's sheet: "कर्व विवरण | Curve Details". */
export const registerSheetTitle = (kind: 'curves' | 'stations'): string => sheetNamed(kind === 'curves' ? 'curveDetails' : 'stationDetails');

/** A register column's title as the export writes it, "कर्व नंबर / Curve Number"; a header with no Hindi is a bug. */
export function registerColumnTitle(english: string): string {
  const text = REGISTER_COLUMN_WORDS[english];
  if (!text) throw new Error(`no Hindi for the register column "${english}"`);
  return both(text);
}

/** The English half of a bilingual text as `both` writes it; the text itself when it has none. */
export function englishOf(text: string): string {
  const at = text.indexOf(BILINGUAL_SEPARATOR);
  return at < 0 ? text : text.slice(at + BILINGUAL_SEPARATOR.length);
}

/** The texts that hold figures, dates or names: each a pair made from the same values. */
export const REPORT_PHRASES = {
  /** The footer's page number. */
  page: (page: number, total: number) => pair(`पृष्ठ ${page} (कुल ${total})`, `Page ${page} of ${total}`),
  /** "from 2026-11-01 to 2026-11-23", "up to 2026-11-23", "all dates". */
  period: (fromDate: string | undefined, toDate: string | undefined): Bilingual => {
    if (fromDate && toDate) return pair(`${fromDate} से ${toDate} तक`, `from ${fromDate} to ${toDate}`);
    if (fromDate) return pair(`${fromDate} से`, `from ${fromDate}`);
    if (toDate) return pair(`${toDate} तक`, `up to ${toDate}`);
    return REPORT_WORDS.allDates;
  },
  /** A CoF reading above the threshold, after the reading: "ABOVE 0.25". */
  aboveMark: (threshold: string) => pair(`${threshold} से ऊपर`, `ABOVE ${threshold}`),
  /** The same in a record's title line: "above 0.25". */
  above: (threshold: string) => pair(`${threshold} से ऊपर`, `above ${threshold}`),
  aboveThresholdCount: (count: number, threshold: string) =>
    pair(`${count} (सीमा ${threshold}; इससे ऊपर की रीडिंग पर अनुवर्ती कार्रवाई आवश्यक)`, `${count} (threshold ${threshold}; a reading above it needs follow-up)`),
  readingsAbove: (threshold: string) => pair(`${threshold} से ऊपर की रीडिंग`, `Readings above ${threshold}`),
  needingActionCount: (count: number) =>
    pair(`${count} (पुर्जा टूटा या चोरी हुआ, या मशीन काम नहीं कर रही: गहरे लाल रंग में चिह्नित)`, `${count} (a part broken or stolen, or the machine not working: marked in bold red)`),
  highCount: (count: number, threshold: string) =>
    pair(`${count} (${threshold} से ऊपर, गहरे लाल रंग में "HIGH" से चिह्नित)`, `${count} (above ${threshold}, marked in bold red with "HIGH")`),
  cofOverTime: (threshold: string) => pair(`समय के साथ CoF, कर्ववार (डैश रेखा: सीमा ${threshold})`, `CoF over time, by curve (dashed line: threshold ${threshold})`),
  /** "by month" after an analytics report's scope. */
  byGrain: (grain: 'month' | 'week') => (grain === 'month' ? pair('माहवार', 'by month') : pair('सप्ताहवार', 'by week')),
  dateRange: (from: string, to: string) => pair(`${from} से ${to} तक`, `${from} to ${to}`),
  complianceAt: (share: string, days: number, at: string) => pair(`${at} को ${days} दिनों के भीतर ${share}`, `${share} within ${days} days at ${at}`),
  aboveValue: (threshold: string) => pair(`${threshold} से ऊपर`, `Above ${threshold}`),
  visitCounts: (service: string, cof: string) => pair(`${service} सर्विस, ${cof} CoF`, `${service} Service, ${cof} CoF`),
  openedClosedCounts: (opened: string, closed: string) => pair(`अवधि में ${opened} खोली गईं, ${closed} बंद की गईं`, `${opened} / ${closed} actions in the range`),
  bySectionAt: (at: string) => pair(`${at} को खंडवार, सबसे कम सर्विस प्रतिशत पहले`, `By section at ${at}, worst Service share first`),
  bySseAt: (at: string) => pair(`${at} को SSE-वार, सबसे कम सर्विस प्रतिशत पहले`, `By SSE at ${at}, worst Service share first`),
  risingCurves: (upTo: string) => pair(`कर्व जिनकी पिछली तीन रीडिंग बढ़ रही हैं (${upTo} तक)`, `Curves whose last three readings rise (up to ${upTo})`),
  alertThreshold: (threshold: string) => pair(`चेतावनी सीमा ${threshold}`, `Alert threshold ${threshold}`),
  partsChartTitle: (shown: number | null) =>
    pair(`अवधि में टूटे या चोरी हुए पुर्जे, सबसे अधिक पहले${shown === null ? '' : ` (पहले ${shown})`}`, `Parts broken or stolen over the range, most first${shown === null ? '' : ` (the first ${shown})`}`),
  openAt: (at: string) => pair(`${at} को खुली`, `Open at ${at}`),
  technicianChartTitle: (shown: number | null) =>
    pair(`अवधि में तकनीशियनवार विज़िट, सबसे अधिक पहले${shown === null ? '' : ` (पहले ${shown})`}`, `Visits per technician over the range, most first${shown === null ? '' : ` (the first ${shown})`}`),
  /** An analytics workbook's column of one kind of visit: "Service on schedule". */
  ofKind: (kind: 'Service' | 'CoF', what: 'onSchedule' | 'within' | 'overdue' | 'neverVisited' | 'shareWithin') => {
    const hiKind = kind === 'Service' ? 'सर्विस' : 'CoF';
    const texts = {
      onSchedule: pair(`${hiKind} शेड्यूल पर`, `${kind} on schedule`),
      within: pair(`${hiKind} अंतराल में`, `${kind} within`),
      overdue: pair(`${hiKind} अतिदेय`, `${kind} overdue`),
      neverVisited: pair(`${hiKind} कभी विज़िट नहीं`, `${kind} never visited`),
      shareWithin: pair(`${hiKind} अंतराल में प्रतिशत`, `${kind} share within`),
    };
    return texts[what];
  },
  readingDate: (n: number) => pair(`रीडिंग ${n} दिनांक`, `Reading ${n} date`),
  reading: (n: number) => pair(`रीडिंग ${n}`, `Reading ${n}`),
  /** A period's column of one kind of visit: "Jun 2026 Service". */
  periodVisits: (label: string, kind: 'Service' | 'CoF') => pair(`${label} ${kind === 'Service' ? 'सर्विस' : 'CoF'}`, `${label} ${kind}`),
  maintenanceRule: (serviceDays: number, cofDays: number) =>
    pair(`सर्विस हर ${serviceDays} दिन, CoF हर ${cofDays} दिन; जल्द देय = 3 दिनों के भीतर`, `Service every ${serviceDays} days, CoF every ${cofDays} days; due soon = within 3 days`),
  lastReadingAbove: (threshold: string) => pair(`पिछली रीडिंग ${threshold} से ऊपर`, `last reading above ${threshold}`),
} as const satisfies Record<string, (...args: never[]) => Bilingual>;
