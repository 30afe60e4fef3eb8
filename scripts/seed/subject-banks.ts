/**
 * Word banks and colour themes for the demo books, by subject. Shared by the PDF generator (Worker
 * and Node) and the Node cover renderer, so a book's cover and its title page agree on colours.
 */

export interface SubjectBank {
  /** Chapter topics, written as they read mid-sentence; headings title-case them. */
  topics: string[];
  /** "{t}" is replaced by the chapter topic. */
  sentences: string[];
  /** Short category labels for charts, tables and diagrams. */
  labels: string[];
  theme: { primary: string; secondary: string; accent: string };
}

export const GENERIC: SubjectBank = {
  topics: ["getting started", "key ideas", "looking closer", "making connections", "putting it together", "review and practice"],
  sentences: [
    "In this chapter we look carefully at {t} and why it matters.",
    "Read each example slowly, and try to explain it in your own words.",
    "A good way to remember {t} is to teach it to a friend.",
    "The figure on this page shows one way to picture the idea.",
    "Notice how each step builds on the one before it.",
    "Ask yourself what would change if one detail were different.",
    "Many people find {t} easier once they see a real example.",
    "Take a moment to write down one question you still have.",
    "Compare your answer with a partner and discuss any differences.",
    "By the end of this section you should feel ready to try the exercises.",
    "Look back at the previous page if any of the words feel unfamiliar.",
    "Small, regular practice works better than one long session.",
    "Try drawing a quick sketch to organise your thinking.",
    "The questions at the end of the chapter check what you have learned.",
    "Sometimes the best way forward is to start with a simpler case.",
    "Keep your notes tidy, because you will use them again later.",
  ],
  labels: ["Alpha", "Beta", "Gamma", "Delta", "Sigma", "Omega"],
  theme: { primary: "#37474f", secondary: "#78909c", accent: "#ffb300" },
};

const BANKS: Record<string, SubjectBank> = {
  Mathematics: {
    topics: [
      "place value",
      "addition and subtraction",
      "multiplication patterns",
      "fractions and decimals",
      "ratios and rates",
      "shapes and angles",
      "measuring area",
      "data and graphs",
      "simple equations",
      "number lines",
    ],
    sentences: [
      "Mathematicians look for patterns, and {t} is full of them.",
      "Start by estimating the answer, then work it out exactly.",
      "A number line helps us see how {t} fits together.",
      "Check your work by solving the problem a second way.",
      "When we study {t}, careful drawings often reveal the answer.",
      "Every rule in {t} can be tested with a small example.",
      "Write each step clearly so that a reader can follow your reasoning.",
      "Try the same problem with larger numbers and see what stays the same.",
      "Equal parts, equal groups and equal steps are the heart of {t}.",
      "The graph shows how one quantity changes as another grows.",
      "Mistakes are useful: they show exactly where to look again.",
      "A table of values makes the pattern in {t} easy to spot.",
    ],
    labels: ["1/2", "1/3", "1/4", "2/3", "3/4", "5/6"],
    theme: { primary: "#1565c0", secondary: "#42a5f5", accent: "#ffca28" },
  },
  English: {
    topics: [
      "reading for meaning",
      "characters and setting",
      "the shape of a story",
      "poetry and rhythm",
      "building vocabulary",
      "writing clear sentences",
      "persuasive writing",
      "myths and folk tales",
      "drafting and revising",
      "speaking and listening",
    ],
    sentences: [
      "Good readers ask questions while they read, not only at the end.",
      "Writers choose every word in {t} with a purpose.",
      "Read the passage aloud and listen for its rhythm.",
      "Notice how the author shows feelings through actions and dialogue.",
      "A strong paragraph begins with a clear topic sentence.",
      "When we explore {t}, we learn to read like writers.",
      "Underline the words that create a picture in your mind.",
      "Every story has a beginning, a middle and an end that connect.",
      "Try rewriting one sentence in three different ways.",
      "Discuss with a partner how {t} changes the way we read.",
      "Punctuation guides the reader, like signs along a road.",
      "Keep a notebook of new words and the sentences where you found them.",
    ],
    labels: ["Plot", "Theme", "Voice", "Tone", "Setting", "Mood"],
    theme: { primary: "#6a1b9a", secondary: "#ab47bc", accent: "#ffd54f" },
  },
  Science: {
    topics: [
      "observing the world",
      "living things",
      "forces and motion",
      "the water cycle",
      "matter and materials",
      "energy and heat",
      "plants and seeds",
      "weather and climate",
      "the solar system",
      "fair tests",
    ],
    sentences: [
      "Scientists begin with a question and a careful observation.",
      "In this investigation of {t}, we change only one thing at a time.",
      "Record your measurements in a table before drawing any conclusion.",
      "A prediction is a guess that we can test with evidence.",
      "The diagram shows the main parts involved in {t}.",
      "Repeat the experiment to make sure your results are reliable.",
      "Everything around us is made of matter, and matter can change.",
      "Look for cause and effect when you study {t}.",
      "Safety first: wear goggles and follow your teacher's instructions.",
      "A model helps us understand things too large or too small to see.",
      "Compare your results with those of another group.",
      "Good scientists share their findings and welcome questions.",
    ],
    labels: ["Solid", "Liquid", "Gas", "Heat", "Light", "Sound"],
    theme: { primary: "#2e7d32", secondary: "#66bb6a", accent: "#ffee58" },
  },
  "Social Studies": {
    topics: [
      "communities",
      "maps and directions",
      "needs and wants",
      "rules and laws",
      "people and places",
      "trade and money",
      "our government",
      "cultures of the world",
      "resources",
      "citizenship",
    ],
    sentences: [
      "Communities work best when people help one another.",
      "A map is a drawing of a place seen from above.",
      "When we learn about {t}, we learn about ourselves.",
      "Every place has its own story, shaped by the people who live there.",
      "Use the compass rose to find north, south, east and west.",
      "The chart compares how different regions meet their needs.",
      "Citizens have rights, and they also have responsibilities.",
      "Think about how {t} affects families in your town.",
      "Trade lets people get goods they cannot make themselves.",
      "Interview an older relative about how {t} has changed.",
      "Laws help keep people safe and treat everyone fairly.",
      "Different cultures celebrate, work and learn in many ways.",
    ],
    labels: ["North", "South", "East", "West", "Central", "Coast"],
    theme: { primary: "#e65100", secondary: "#ffa726", accent: "#fff176" },
  },
  History: {
    topics: [
      "the first cities",
      "ancient Egypt",
      "Greece and Rome",
      "trade routes",
      "the age of exploration",
      "revolutions",
      "the industrial age",
      "empires and colonies",
      "a century of change",
      "looking back",
    ],
    sentences: [
      "Historians use evidence to piece together the past.",
      "Primary sources, such as letters and diaries, speak in their own voice.",
      "The timeline shows the main events in {t}.",
      "Ask who wrote each source, when, and why.",
      "People in the past made choices, just as we do today.",
      "When we study {t}, we look for causes and consequences.",
      "Some changes happened quickly, while others took centuries.",
      "Maps from the period show how borders moved over time.",
      "Compare two accounts of {t} and note where they disagree.",
      "Ordinary people shaped history as much as kings and generals.",
      "Objects found by archaeologists tell us how people lived.",
      "Think about what life was like for a child in {t}.",
    ],
    labels: ["1500", "1600", "1700", "1800", "1900", "2000"],
    theme: { primary: "#6d4c41", secondary: "#a1887f", accent: "#ffcc80" },
  },
  "Computer Science": {
    topics: [
      "algorithms",
      "variables and values",
      "loops",
      "making decisions",
      "functions",
      "lists and tables",
      "debugging",
      "data and files",
      "networks",
      "thinking like a programmer",
    ],
    sentences: [
      "An algorithm is a clear set of steps that solves a problem.",
      "Computers follow instructions exactly, so every detail matters.",
      "When we practise {t}, we break big problems into small ones.",
      "Test your program with simple inputs before trying hard ones.",
      "A loop repeats a block of code until a condition is met.",
      "Give your variables names that explain what they hold.",
      "The diagram shows how data flows through {t}.",
      "Debugging is detective work: find the clue, then fix the cause.",
      "Write comments that explain why the code does what it does.",
      "Try tracing {t} by hand with a pencil and paper.",
      "Good programs are easy for other people to read.",
      "Every input should lead to a predictable output.",
    ],
    labels: ["Input", "Store", "Loop", "Test", "Output", "Save"],
    theme: { primary: "#00695c", secondary: "#26a69a", accent: "#b2ff59" },
  },
  Art: {
    topics: [
      "line and shape",
      "colour",
      "texture",
      "light and shadow",
      "perspective",
      "patterns",
      "portraits",
      "landscapes",
      "sculpture",
      "art in the community",
    ],
    sentences: [
      "Artists look closely at the world before they draw it.",
      "Every line can be thick or thin, calm or full of energy.",
      "In this chapter we explore {t} with simple materials.",
      "Warm colours seem to come forward, while cool colours step back.",
      "Sketch quickly first, then slow down to add detail.",
      "Notice how light falls on an object and where the shadows gather.",
      "When we study {t}, we learn to see in a new way.",
      "Try the same subject in three different styles.",
      "Great artists borrowed ideas and then made them their own.",
      "Talk about a work of art by describing what you see first.",
      "The figure shows how shapes combine to build a picture.",
      "Keep a sketchbook and fill one page with {t} every week.",
    ],
    labels: ["Red", "Blue", "Yellow", "Green", "Orange", "Violet"],
    theme: { primary: "#c2185b", secondary: "#f06292", accent: "#4dd0e1" },
  },
};

/** Matches loose subject names ("Maths", "Science & Nature") to a bank, falling back to generic text. */
export function bankFor(subject: string | null): SubjectBank {
  const s = (subject ?? "").toLowerCase();
  if (/computer|coding|program/.test(s)) return BANKS["Computer Science"]!;
  if (/social|civic|geograph|econom/.test(s)) return BANKS["Social Studies"]!;
  if (/math/.test(s)) return BANKS.Mathematics!;
  if (/english|language|literat|reading|writing/.test(s)) return BANKS.English!;
  if (/scien|physic|chemi|biolog/.test(s)) return BANKS.Science!;
  if (/histor/.test(s)) return BANKS.History!;
  if (/\bart/.test(s)) return BANKS.Art!;
  return GENERIC;
}
