/** The demo schools `npm start` seeds, and their demo teacher's name and address. */
export interface DemoSchool {
  slug: string;
  name: string;
  address1: string;
  address2: string | null;
  address3: string | null;
  city: string;
  state: string;
  zipCode: string;
  email: string;
  principal: string;
  teacherLimit: number;
  /** Grades whose books the school gets, plus any subjects it gets whatever the grade. */
  grades: [number, number];
  extraSubjects: string[];
}

export const DEMO_SCHOOLS: DemoSchool[] = [
  {
    slug: "lincoln-high",
    name: "Lincoln High School",
    address1: "1200 Lincoln Avenue",
    address2: null,
    address3: null,
    city: "Springfield",
    state: "IL",
    zipCode: "62704",
    email: "office@lincolnhigh.example.org",
    principal: "Dr. Angela Reyes",
    teacherLimit: 40,
    grades: [9, 12],
    extraSubjects: ["Art", "Computer Science"],
  },
  {
    slug: "washington-elementary",
    name: "Washington Elementary",
    address1: "45 Cherry Lane",
    address2: "Building B",
    address3: null,
    city: "Arlington",
    state: "VA",
    zipCode: "22201",
    email: "frontdesk@washingtonelementary.example.org",
    principal: "Marcus Bell",
    teacherLimit: 25,
    grades: [1, 5],
    extraSubjects: [],
  },
  {
    slug: "washington-high",
    name: "Washington High School",
    address1: "3300 Capitol Boulevard SE",
    address2: null,
    address3: null,
    city: "Olympia",
    state: "WA",
    zipCode: "98501",
    email: "library@washingtonhigh.example.org",
    principal: "Karen Oduya",
    teacherLimit: 30,
    grades: [8, 12],
    extraSubjects: [],
  },
  {
    slug: "lincoln-academy",
    name: "Lincoln Academy",
    address1: "88 Academy Road",
    address2: "Suite 2",
    address3: "North Campus",
    city: "Lincoln",
    state: "NE",
    zipCode: "68508",
    email: "admin@lincolnacademy.example.org",
    principal: "Sofia Marchetti",
    teacherLimit: 15,
    grades: [5, 10],
    extraSubjects: ["Art"],
  },
  {
    slug: "roosevelt-elementary",
    name: "Roosevelt Elementary",
    address1: "710 Roosevelt Way NE",
    address2: null,
    address3: null,
    city: "Seattle",
    state: "WA",
    zipCode: "98115",
    email: "office@rooseveltelementary.example.org",
    principal: "James Whitfield",
    teacherLimit: 20,
    grades: [1, 6],
    extraSubjects: ["Art"],
  },
];

export const DEMO_TEACHER_NAME = "Demo Teacher";

/** A demo school's e-mail domain: its demo teacher's, and the one its sign-in with Google and Microsoft accepts. */
export function demoSchoolDomain(slug: string): string {
  return `${slug}.example.org`;
}

export function demoTeacherEmail(slug: string): string {
  return `demo.teacher@${demoSchoolDomain(slug)}`;
}
