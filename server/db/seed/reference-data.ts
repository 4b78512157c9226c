/**
 * Static reference lists behind the demo data: the five divisions with their sections and
 * stations, the officers in charge, the spare-parts catalogue and the extra technicians.
 * Stations follow the real order along each line so that station pickers, curve locations
 * and reports read like a divisional curve register.
 */
import type { Division } from '../../../common/constants.js';

export interface StationRef {
  name: string;
  code: string;
}

export interface SectionRef {
  name: string;
  /** Chainage of the first station: sections start partway along a trunk route. */
  startKm: number;
  /** Distance between neighbouring stations, drawn from this range. */
  stationSpacingKm: readonly [number, number];
  /** Number of curve locations; on double lines most locations give an Up and a Down curve. */
  curveSites: number;
  curveNumberStyle: 'plain' | 'lettered' | 'km-pole';
  degreeRange: readonly [number, number];
  den: string;
  aen: string;
  /** P.Way SSEs in the order their jurisdictions follow along the section. */
  sses: readonly string[];
  stations: readonly StationRef[];
}

export interface DivisionRef {
  division: Division;
  zone: string;
  /** FZR's demo sections are worked as single lines; the other divisions are double lines. */
  doubleLine: boolean;
  hkmCodeBase: number;
  /** Employee IDs of the technicians who look after this division's machines. */
  technicianIds: readonly string[];
  sections: readonly SectionRef[];
}

const s = (name: string, code: string): StationRef => ({ name, code });

export const DIVISION_REFS: readonly DivisionRef[] = [
  {
    division: 'RTM/WR',
    zone: 'WR',
    doubleLine: true,
    hkmCodeBase: 1001,
    technicianIds: ['TEC2001'],
    sections: [
      {
        name: 'RTM-NAD',
        startKm: 658,
        stationSpacingKm: [7, 11],
        curveSites: 8,
        curveNumberStyle: 'km-pole',
        degreeRange: [0.5, 3],
        den: 'Sr. DEN/Co-ord RTM',
        aen: 'AEN/RTM',
        sses: ['SSE/P.Way/RTM', 'SSE/P.Way/KUD', 'SSE/P.Way/NAD'],
        stations: [
          s('Ratlam Jn', 'RTM'),
          s('Bangrod', 'BOD'),
          s('Runija', 'RNJ'),
          s('Khachrod', 'KUD'),
          s('Nagda Jn', 'NAD'),
        ],
      },
      {
        name: 'RTM-GDA',
        startKm: 486,
        stationSpacingKm: [8, 16],
        curveSites: 12,
        curveNumberStyle: 'lettered',
        degreeRange: [1, 5],
        den: 'DEN/South RTM',
        aen: 'AEN/DHD',
        sses: ['SSE/P.Way/MGN', 'SSE/P.Way/DHD', 'SSE/P.Way/LMK'],
        stations: [
          s('Ratlam Jn', 'RTM'),
          s('Bamnia', 'BMI'),
          s('Meghnagar', 'MGN'),
          s('Thandla Road', 'THDR'),
          s('Anas', 'AAS'),
          s('Dahod', 'DHD'),
          s('Limkheda', 'LMK'),
          s('Piplod Jn', 'PPD'),
          s('Godhra Jn', 'GDA'),
        ],
      },
      {
        name: 'RTM-NMH',
        startKm: 0,
        stationSpacingKm: [9, 15],
        curveSites: 9,
        curveNumberStyle: 'plain',
        degreeRange: [0.5, 3.5],
        den: 'DEN/North RTM',
        aen: 'AEN/MDS',
        sses: ['SSE/P.Way/JAO', 'SSE/P.Way/MDS', 'SSE/P.Way/NMH'],
        stations: [
          s('Ratlam Jn', 'RTM'),
          s('Jaora', 'JAO'),
          s('Dhodhar', 'DOD'),
          s('Dalauda', 'DLD'),
          s('Mandsaur', 'MDS'),
          s('Piplia', 'PIP'),
          s('Malhargarh', 'MLG'),
          s('Neemuch', 'NMH'),
        ],
      },
      {
        name: 'BEC Bypass',
        startKm: 12,
        stationSpacingKm: [4, 7],
        curveSites: 5,
        curveNumberStyle: 'lettered',
        degreeRange: [2, 5.5],
        den: 'Sr. DEN/Co-ord RTM',
        aen: 'AEN/UJN',
        sses: ['SSE/P.Way/BEC', 'SSE/P.Way/UJN'],
        stations: [
          s('Berchha Jn', 'BEC'),
          s('Kali Sindh', 'KSH'),
          s('Tarana Road', 'TRR'),
          s('Pingleshwar', 'PLW'),
          s('Ujjain Jn', 'UJN'),
        ],
      },
      {
        name: 'NAD-SGZ',
        startKm: 699,
        stationSpacingKm: [8, 13],
        curveSites: 6,
        curveNumberStyle: 'km-pole',
        degreeRange: [0.5, 3],
        den: 'DEN/North RTM',
        aen: 'AEN/NAD',
        sses: ['SSE/P.Way/NAD', 'SSE/P.Way/VMA', 'SSE/P.Way/SGZ'],
        stations: [
          s('Nagda Jn', 'NAD'),
          s('Unhel', 'UHL'),
          s('Vikramgarh Alot', 'VMA'),
          s('Chaumahla', 'CMU'),
          s('Shamgarh', 'SGZ'),
        ],
      },
    ],
  },
  {
    division: 'FZR/NR',
    zone: 'NR',
    doubleLine: false,
    hkmCodeBase: 2001,
    technicianIds: ['TEC2002'],
    sections: [
      {
        name: 'FZR-JUC',
        startKm: 0,
        stationSpacingKm: [8, 15],
        curveSites: 14,
        curveNumberStyle: 'plain',
        degreeRange: [0.5, 2.5],
        den: 'Sr. DEN/Co-ord FZR',
        aen: 'AEN/FZR',
        sses: ['SSE/P.Way/FZR', 'SSE/P.Way/MXH', 'SSE/P.Way/NRO'],
        stations: [
          s('Firozpur Cantt', 'FZR'),
          s('Firozpur City', 'FZP'),
          s('Mallanwala Khas', 'MWX'),
          s('Makhu', 'MXH'),
          s('Lohian Khas Jn', 'LNK'),
          s('Shahkot Malsian', 'SKMI'),
          s('Nakodar Jn', 'NRO'),
          s('Jalandhar City', 'JUC'),
        ],
      },
      {
        name: 'LDH-JUC',
        startKm: 322,
        stationSpacingKm: [6, 10],
        curveSites: 12,
        curveNumberStyle: 'km-pole',
        degreeRange: [0.5, 2],
        den: 'DEN/East FZR',
        aen: 'AEN/LDH',
        sses: ['SSE/P.Way/LDH', 'SSE/P.Way/PHR', 'SSE/P.Way/PGW'],
        stations: [
          s('Ludhiana Jn', 'LDH'),
          s('Ladhowal', 'LDW'),
          s('Phillaur Jn', 'PHR'),
          s('Goraya', 'GRY'),
          s('Phagwara Jn', 'PGW'),
          s('Chiheru', 'CEU'),
          s('Jalandhar Cantt', 'JRC'),
          s('Jalandhar City', 'JUC'),
        ],
      },
      {
        name: 'FZR-BTI',
        startKm: 0,
        stationSpacingKm: [12, 20],
        curveSites: 10,
        curveNumberStyle: 'plain',
        degreeRange: [0.5, 2.5],
        den: 'DEN/West FZR',
        aen: 'AEN/FDK',
        sses: ['SSE/P.Way/FDK', 'SSE/P.Way/KKP', 'SSE/P.Way/BTI'],
        stations: [
          s('Firozpur Cantt', 'FZR'),
          s('Mudki', 'MDKI'),
          s('Faridkot', 'FDK'),
          s('Kotkapura Jn', 'KKP'),
          s('Goniana', 'GNA'),
          s('Bathinda Jn', 'BTI'),
        ],
      },
      {
        name: 'JAT-SVDK',
        startKm: 0,
        stationSpacingKm: [7, 12],
        curveSites: 18,
        curveNumberStyle: 'lettered',
        degreeRange: [2, 6],
        den: 'Sr. DEN/JAT',
        aen: 'AEN/UHP',
        sses: ['SSE/P.Way/JAT', 'SSE/P.Way/MNWL', 'SSE/P.Way/UHP', 'SSE/P.Way/SVDK'],
        stations: [
          s('Jammu Tawi', 'JAT'),
          s('Bajalta', 'BJTA'),
          s('Sangar', 'SGRR'),
          s('Manwal', 'MNWL'),
          s('Ramnagar', 'RMNR'),
          s('Udhampur', 'UHP'),
          s('Chak Rakhwal', 'CKRL'),
          s('Shri Mata Vaishno Devi Katra', 'SVDK'),
        ],
      },
      {
        name: 'PTK-JAT',
        startKm: 6,
        stationSpacingKm: [10, 16],
        curveSites: 12,
        curveNumberStyle: 'plain',
        degreeRange: [1, 4.5],
        den: 'Sr. DEN/JAT',
        aen: 'AEN/KTHU',
        sses: ['SSE/P.Way/KTHU', 'SSE/P.Way/SMBX', 'SSE/P.Way/JAT'],
        stations: [
          s('Pathankot Cantt', 'PTKC'),
          s('Kathua', 'KTHU'),
          s('Hiranagar', 'HRNR'),
          s('Ghagwal', 'GHGL'),
          s('Samba', 'SMBX'),
          s('Vijaypur Jammu', 'VJPJ'),
          s('Bari Brahmana', 'BBMN'),
          s('Jammu Tawi', 'JAT'),
        ],
      },
    ],
  },
  {
    division: 'BRC/WR',
    zone: 'WR',
    doubleLine: true,
    hkmCodeBase: 3001,
    technicianIds: ['TEC2003', 'TEC2001'],
    sections: [
      {
        name: 'BRC-ANND',
        startKm: 392,
        stationSpacingKm: [6, 10],
        curveSites: 8,
        curveNumberStyle: 'km-pole',
        degreeRange: [0.5, 2.5],
        den: 'Sr. DEN/Co-ord BRC',
        aen: 'AEN/BRC',
        sses: ['SSE/P.Way/BRC', 'SSE/P.Way/VDA'],
        stations: [
          s('Vadodara Jn', 'BRC'),
          s('Chhayapuri', 'CYI'),
          s('Ranoli', 'RNO'),
          s('Vasad Jn', 'VDA'),
          s('Kanjari Boriyavi', 'KBRV'),
          s('Anand Jn', 'ANND'),
        ],
      },
      {
        name: 'BRC-GDA',
        startKm: 0,
        stationSpacingKm: [8, 14],
        curveSites: 10,
        curveNumberStyle: 'plain',
        degreeRange: [1, 4],
        den: 'DEN/North BRC',
        aen: 'AEN/GDA',
        sses: ['SSE/P.Way/SMLA', 'SSE/P.Way/CPN', 'SSE/P.Way/GDA'],
        stations: [
          s('Vadodara Jn', 'BRC'),
          s('Chhayapuri', 'CYI'),
          s('Jarod', 'JRD'),
          s('Samlaya Jn', 'SMLA'),
          s('Champaner Road Jn', 'CPN'),
          s('Derol', 'DRL'),
          s('Godhra Jn', 'GDA'),
        ],
      },
      {
        name: 'BRC-BH',
        startKm: 322,
        stationSpacingKm: [7, 11],
        curveSites: 11,
        curveNumberStyle: 'km-pole',
        degreeRange: [0.5, 2.5],
        den: 'DEN/South BRC',
        aen: 'AEN/BH',
        sses: ['SSE/P.Way/ITA', 'SSE/P.Way/MYG', 'SSE/P.Way/BH'],
        stations: [
          s('Vadodara Jn', 'BRC'),
          s('Makarpura', 'MPR'),
          s('Itola', 'ITA'),
          s('Varnama', 'VRM'),
          s('Miyagam Karjan Jn', 'MYG'),
          s('Palej', 'PLJ'),
          s('Nabipur', 'NIU'),
          s('Bharuch Jn', 'BH'),
        ],
      },
      {
        name: 'PRTN-CTD',
        startKm: 3,
        stationSpacingKm: [9, 15],
        curveSites: 7,
        curveNumberStyle: 'lettered',
        degreeRange: [1.5, 5],
        den: 'DEN/North BRC',
        aen: 'AEN/DB',
        sses: ['SSE/P.Way/DB', 'SSE/P.Way/BDE'],
        stations: [
          s('Pratapnagar', 'PRTN'),
          s('Ketanpur', 'KTNR'),
          s('Dabhoi Jn', 'DB'),
          s('Bodeli', 'BDE'),
          s('Jabugam', 'JBG'),
          s('Chhota Udepur', 'CTD'),
        ],
      },
    ],
  },
  {
    division: 'NDLS/NR',
    zone: 'NR',
    doubleLine: true,
    hkmCodeBase: 4001,
    technicianIds: ['TEC2004', 'TEC2002'],
    sections: [
      {
        name: 'NDLS-GZB',
        startKm: 1,
        stationSpacingKm: [3, 6],
        curveSites: 7,
        curveNumberStyle: 'plain',
        degreeRange: [1, 4],
        den: 'Sr. DEN/Co-ord DLI',
        aen: 'AEN/ANVT',
        sses: ['SSE/P.Way/TKJ', 'SSE/P.Way/SBB', 'SSE/P.Way/GZB'],
        stations: [
          s('New Delhi', 'NDLS'),
          s('Tilak Bridge', 'TKJ'),
          s('Mandawali Chander Vihar', 'MDVR'),
          s('Anand Vihar Terminal', 'ANVT'),
          s('Sahibabad Jn', 'SBB'),
          s('Ghaziabad Jn', 'GZB'),
        ],
      },
      {
        name: 'DLI-PNP',
        startKm: 0,
        stationSpacingKm: [6, 12],
        curveSites: 12,
        curveNumberStyle: 'km-pole',
        degreeRange: [0.5, 2.5],
        den: 'DEN/North DLI',
        aen: 'AEN/SNP',
        sses: ['SSE/P.Way/NUR', 'SSE/P.Way/SNP', 'SSE/P.Way/SMK'],
        stations: [
          s('Delhi Jn', 'DLI'),
          s('Sabzi Mandi', 'SZM'),
          s('Adarsh Nagar Delhi', 'ANDI'),
          s('Narela', 'NUR'),
          s('Rathdhana', 'RDDE'),
          s('Sonipat Jn', 'SNP'),
          s('Ganaur', 'GNU'),
          s('Samalkha', 'SMK'),
          s('Panipat Jn', 'PNP'),
        ],
      },
      {
        name: 'DEC-RE',
        startKm: 12,
        stationSpacingKm: [7, 13],
        curveSites: 9,
        curveNumberStyle: 'lettered',
        degreeRange: [0.5, 3],
        den: 'DEN/South DLI',
        aen: 'AEN/GGN',
        sses: ['SSE/P.Way/BWSN', 'SSE/P.Way/GGN', 'SSE/P.Way/PTRD'],
        stations: [
          s('Delhi Cantt', 'DEC'),
          s('Palam', 'PM'),
          s('Bijwasan', 'BWSN'),
          s('Gurgaon', 'GGN'),
          s('Garhi Harsaru Jn', 'GHH'),
          s('Pataudi Road', 'PTRD'),
          s('Rewari Jn', 'RE'),
        ],
      },
      {
        name: 'GZB-MTC',
        startKm: 20,
        stationSpacingKm: [6, 10],
        curveSites: 7,
        curveNumberStyle: 'plain',
        degreeRange: [0.5, 2.5],
        den: 'DEN/North DLI',
        aen: 'AEN/MTC',
        sses: ['SSE/P.Way/MUD', 'SSE/P.Way/MTC'],
        stations: [
          s('Ghaziabad Jn', 'GZB'),
          s('Guldhar', 'GUH'),
          s('Muradnagar', 'MUD'),
          s('Modinagar', 'MDNR'),
          s('Mohiuddinpur', 'MUZ'),
          s('Partapur', 'PRP'),
          s('Meerut City Jn', 'MTC'),
        ],
      },
    ],
  },
  {
    division: 'JBP/WCR',
    zone: 'WCR',
    doubleLine: true,
    hkmCodeBase: 5001,
    technicianIds: ['TEC2005'],
    sections: [
      {
        name: 'JBP-KTE',
        startKm: 1000,
        stationSpacingKm: [7, 14],
        curveSites: 10,
        curveNumberStyle: 'km-pole',
        degreeRange: [1, 4],
        den: 'Sr. DEN/Co-ord JBP',
        aen: 'AEN/SHR',
        sses: ['SSE/P.Way/JBP', 'SSE/P.Way/SHR', 'SSE/P.Way/KTE'],
        stations: [
          s('Jabalpur', 'JBP'),
          s('Adhartal', 'ADTL'),
          s('Deori', 'DOE'),
          s('Panagar', 'PAN'),
          s('Sihora Road', 'SHR'),
          s('Gosalpur', 'GSPR'),
          s('Sleemanabad Road', 'SLMD'),
          s('Katni Jn', 'KTE'),
        ],
      },
      {
        name: 'JBP-ET',
        startKm: 752,
        stationSpacingKm: [10, 20],
        curveSites: 14,
        curveNumberStyle: 'plain',
        degreeRange: [0.5, 3.5],
        den: 'DEN/South JBP',
        aen: 'AEN/NU',
        sses: ['SSE/P.Way/SRID', 'SSE/P.Way/NU', 'SSE/P.Way/GAR', 'SSE/P.Way/PPI'],
        stations: [
          s('Jabalpur', 'JBP'),
          s('Madan Mahal', 'MML'),
          s('Bhitoni', 'BHTN'),
          s('Shridham', 'SRID'),
          s('Narsinghpur', 'NU'),
          s('Kareli', 'KY'),
          s('Gadarwara', 'GAR'),
          s('Pipariya', 'PPI'),
          s('Itarsi Jn', 'ET'),
        ],
      },
      {
        name: 'KTE-SGO',
        startKm: 0,
        stationSpacingKm: [10, 18],
        curveSites: 9,
        curveNumberStyle: 'lettered',
        degreeRange: [1, 4.5],
        den: 'DEN/North JBP',
        aen: 'AEN/DMO',
        sses: ['SSE/P.Way/KMZ', 'SSE/P.Way/DMO', 'SSE/P.Way/SGO'],
        stations: [
          s('Katni Jn', 'KTE'),
          s('Katni Murwara', 'KMZ'),
          s('Rithi', 'RTI'),
          s('Damoh', 'DMO'),
          s('Patharia', 'PHA'),
          s('Ganeshganj', 'GEJ'),
          s('Saugor', 'SGO'),
        ],
      },
      {
        name: 'KTE-STA',
        startKm: 1091,
        stationSpacingKm: [12, 20],
        curveSites: 7,
        curveNumberStyle: 'plain',
        degreeRange: [1, 5],
        den: 'DEN/North JBP',
        aen: 'AEN/MYR',
        sses: ['SSE/P.Way/JKE', 'SSE/P.Way/MYR', 'SSE/P.Way/STA'],
        stations: [
          s('Katni Jn', 'KTE'),
          s('Jhukehi', 'JKE'),
          s('Amdara', 'ADM'),
          s('Maihar', 'MYR'),
          s('Unchehra', 'UHR'),
          s('Satna', 'STA'),
        ],
      },
    ],
  },
];

/** Technicians beyond the three demo sign-ins, so technician pickers and reports are not trivial. */
export const EXTRA_TECHNICIANS: ReadonlyArray<{ employeeId: string; name: string; phone: string }> = [
  { employeeId: 'TEC2002', name: 'Gurpreet Singh Sandhu', phone: '9814022032' },
  { employeeId: 'TEC2003', name: 'Hardik Patel', phone: '9825032043' },
  { employeeId: 'TEC2004', name: 'Amit Kumar Sharma', phone: '9811042054' },
  // Names are often registered in Hindi: the reports print them through their embedded fonts.
  { employeeId: 'TEC2005', name: 'संतोष कुमार तिवारी', phone: '9425052065' },
];

/** Spare parts a technician can report as broken or stolen, by category. */
export const PART_CATALOGUE: ReadonlyArray<{ category: string; items: readonly string[] }> = [
  {
    category: 'Pump Assembly',
    items: ['Gear Pump', 'Pump Motor 24V DC', 'Pressure Relief Valve', 'Pump Coupling', 'Non-Return Valve'],
  },
  {
    category: 'Grease Tank',
    items: ['Tank Lid with Lock', 'Level Indicator', 'Tank Strainer', 'Tank Mounting Bracket'],
  },
  {
    category: 'Applicator Bar',
    items: ['Wiping Bar (Gauge Face)', 'Applicator Blade', 'Rail Clamp Assembly', 'Distribution Manifold', 'Bar Mounting Bolts'],
  },
  {
    category: 'Control Unit',
    items: ['Controller PCB', 'Timer Module', 'Wheel Sensor Interface Card', 'Cabinet Door Lock', 'Display Panel'],
  },
  {
    category: 'Solar & Battery',
    items: ['Solar Panel 40 W', 'Battery 12V 42Ah', 'Charge Controller', 'Solar Panel Mounting Pole'],
  },
  {
    category: 'Hoses & Fittings',
    items: ['High-Pressure Hose', 'Hose Clamp', 'Elbow Connector', 'Quick-Release Coupling', 'Hose Guard Pipe'],
  },
  {
    category: 'Sensor',
    items: ['Wheel Detector (Inductive)', 'Sensor Cable', 'Sensor Mounting Clamp'],
  },
];

/** Remarks that appear on a few curves of a register; most curves carry none. */
export const CURVE_REMARKS: readonly string[] = [
  'Check rail provided',
  'Reverse curve',
  'Curve on high bank',
  'Bridge approach, transition restricted',
  'PSR 75 km/h',
  'Outer rail renewed',
  'Cutting, drainage to be watched',
];
