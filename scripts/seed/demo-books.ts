/** The demo catalogue `npm start` seeds (26 books, one without a PDF), and which a demo school is given. */
import { isbn13FromStem } from "#shared/rules/isbn.ts";
import type { DemoSchool } from "./demo-schools.ts";

export interface DemoBook {
  title: string;
  author1: string;
  author2: string | null;
  subject: string;
  gradeLevel: number | null;
  description: string;
  isbn: string;
  /** False for the one demo book without a PDF, which shows 'View Book' disabled. */
  hasPdf: boolean;
}

type BookRow = [title: string, author1: string, author2: string | null, subject: string, grade: number | null, description: string];

const BOOK_ROWS: BookRow[] = [
  [
    "Counting Creatures",
    "Maya Ellison",
    null,
    "Mathematics",
    1,
    "Young learners count, compare and sort the animals of the farm, the pond and the forest, from 1 to 100.",
  ],
  [
    "Letters and Sounds",
    "Priya Raman",
    "Tom Whitaker",
    "English",
    1,
    "A first phonics book: every letter, its sound and a short story to read aloud together.",
  ],
  [
    "Our Neighbourhood",
    "Daniel Okafor",
    null,
    "Social Studies",
    2,
    "Homes, shops, helpers and maps: children explore the places and people around their school.",
  ],
  [
    "Shapes Everywhere",
    "Maya Ellison",
    null,
    "Mathematics",
    2,
    "Circles, squares and triangles hiding in everyday things, with cut-and-fold activities.",
  ],
  [
    "Plants and Seeds",
    "Hannah Lindqvist",
    null,
    "Science",
    3,
    "How seeds travel, sprout and grow, with simple experiments for the classroom windowsill.",
  ],
  [
    "Stories from Many Lands",
    "Amara Nwosu",
    "Leo Park",
    "English",
    3,
    "Folk tales from six continents, retold for young readers, with questions for discussion.",
  ],
  [
    "Adding Up: Numbers to 1000",
    "Carlos Mendes",
    null,
    "Mathematics",
    4,
    "Place value, addition and subtraction to 1000, built up with number lines and puzzles.",
  ],
  [
    "Weather Watchers",
    "Hannah Lindqvist",
    null,
    "Science",
    4,
    "Clouds, rain, wind and temperature: pupils keep a weather diary and read simple charts.",
  ],
  [
    "Maps and Globes",
    "Daniel Okafor",
    null,
    "Social Studies",
    5,
    "Reading maps, scales and compass directions, and finding our way around the globe.",
  ],
  [
    "Fractions Made Friendly",
    "Carlos Mendes",
    "Ruth Adler",
    "Mathematics",
    5,
    "Halves, quarters and beyond: fractions explained with pizzas, rulers and number lines.",
  ],
  [
    "The Human Body Explained",
    "Sana Qureshi",
    null,
    "Science",
    6,
    "Bones, muscles, the heart and the lungs: how our bodies work and how to keep them healthy.",
  ],
  [
    "Ancient Civilizations",
    "Julian Marsh",
    null,
    "History",
    6,
    "Mesopotamia, Egypt, the Indus Valley, China, Greece and Rome: how the first cities lived.",
  ],
  [
    "Writing with Purpose",
    "Amara Nwosu",
    null,
    "English",
    7,
    "Planning, drafting and revising stories, letters, reports and persuasive essays.",
  ],
  [
    "Pre-Algebra Foundations",
    "Ruth Adler",
    null,
    "Mathematics",
    7,
    "Integers, ratios, expressions and simple equations: the bridge from arithmetic to algebra.",
  ],
  [
    "Earth and Space",
    "Sana Qureshi",
    "Felix Grant",
    "Science",
    8,
    "Rocks, plate tectonics, the water cycle and our place in the solar system.",
  ],
  [
    "Coding with Python: First Steps",
    "Ines Moreau",
    null,
    "Computer Science",
    8,
    "Variables, loops and functions through small games and drawings, no experience needed.",
  ],
  [
    "The Modern World, 1750-1945",
    "Julian Marsh",
    null,
    "History",
    9,
    "Revolutions, industry, empire and two world wars: the forces that shaped the modern world.",
  ],
  [
    "Algebra I",
    "Ruth Adler",
    "Carlos Mendes",
    "Mathematics",
    9,
    "Linear equations, inequalities, functions and systems, with worked examples and practice sets.",
  ],
  [
    "Chemistry: Matter and Change",
    "Felix Grant",
    null,
    "Science",
    10,
    "Atoms, the periodic table, bonding and reactions, with safe laboratory investigations.",
  ],
  [
    "Geometry and Proof",
    "Ruth Adler",
    null,
    "Mathematics",
    10,
    "Congruence, similarity, circles and coordinate geometry, and how to write a clear proof.",
  ],
  [
    "Literature and Composition",
    "Amara Nwosu",
    "Leo Park",
    "English",
    11,
    "Close reading of poetry, drama and the novel, and essays that argue from the text.",
  ],
  [
    "Physics: Motion and Energy",
    "Felix Grant",
    null,
    "Science",
    11,
    "Forces, motion, work, energy and waves, with data from real experiments to analyse.",
  ],
  [
    "Introduction to Economics",
    "Nadia Brooks",
    null,
    "Social Studies",
    12,
    "Supply and demand, markets, money and government: economics for everyday decisions.",
  ],
  [
    "Calculus: A First Course",
    "Ruth Adler",
    null,
    "Mathematics",
    12,
    "Limits, derivatives and integrals, motivated by motion, growth and area.",
  ],
  [
    "Art Through the Ages",
    "Lucia Ferrante",
    null,
    "Art",
    null,
    "From cave paintings to street art: a visual history of how people have made and seen art.",
  ],
  [
    "Data Structures in Practice",
    "Ines Moreau",
    "Tom Whitaker",
    "Computer Science",
    12,
    "Lists, trees, graphs and hash tables, and how to choose between them.",
  ],
];

export const DEMO_BOOKS: DemoBook[] = [
  ...BOOK_ROWS.map(([title, author1, author2, subject, gradeLevel, description], i) => ({
    title,
    author1,
    author2,
    subject,
    gradeLevel,
    description,
    isbn: isbn13FromStem(`97819550${String(10 + i).padStart(2, "0")}00`),
    hasPdf: true,
  })),
  {
    title: "World Atlas for Schools",
    author1: "Daniel Okafor",
    author2: null,
    subject: "Social Studies",
    gradeLevel: 8,
    description: "Political and physical maps of every continent. The digital edition is in preparation.",
    isbn: isbn13FromStem("978195509900"),
    hasPdf: false,
  },
];

/** The books a demo school is given: its grade range, plus its extra subjects at any grade. */
export function demoBooksFor(school: DemoSchool): DemoBook[] {
  const [from, to] = school.grades;
  return DEMO_BOOKS.filter(
    (book) => (book.gradeLevel !== null && book.gradeLevel >= from && book.gradeLevel <= to) || school.extraSubjects.includes(book.subject),
  );
}
