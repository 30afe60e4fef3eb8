import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "../ui/button.tsx";
import { ButtonLink } from "../ui/button-link.tsx";
import { Icon } from "../ui/icon.tsx";
import { PublicHeader } from "./public-header.tsx";
import { SiteFooter } from "./site-footer.tsx";

const DEMO_SCHOOLS = [
  { name: "Lincoln High School", slug: "lincoln-high", blurb: "Grades 9–12 · Springfield, IL", accent: "from-indigo-500 to-violet-500" },
  {
    name: "Washington Elementary",
    slug: "washington-elementary",
    blurb: "Grades 1–5 · Arlington, VA",
    accent: "from-emerald-500 to-teal-500",
  },
];

const DEMO_DASHBOARDS = [
  { name: "Washington High School", slug: "washington-high" },
  { name: "Lincoln Academy", slug: "lincoln-academy" },
  { name: "Roosevelt Elementary", slug: "roosevelt-elementary" },
];

const FEATURES: { title: string; body: string; icon: ReactNode }[] = [
  {
    title: "Digital Book Management",
    body: "Upload a PDF and a cover once. Lectern keeps the catalogue searchable by title, author, subject, grade and ISBN.",
    icon: <path d="M4 5a2 2 0 0 1 2-2h11v16H6a2 2 0 0 0-2 2zM4 21V5M8 7h6" strokeLinecap="round" strokeLinejoin="round" />,
  },
  {
    title: "School-Specific Access",
    body: "Every school gets its own portal and address. Teachers see exactly the books assigned to their school, and nothing else.",
    icon: <path d="M3 10l9-6 9 6M5 10v9h14v-9M10 19v-5h4v5" strokeLinecap="round" strokeLinejoin="round" />,
  },
  {
    title: "Login Management",
    body: "Teachers register with a code sent to their e-mail. You set how many teachers each school may have and see who reads.",
    icon: <path d="M12 3l7 3v5c0 5-3.5 8.5-7 10-3.5-1.5-7-5-7-10V6zM9 12l2 2 4-4" strokeLinecap="round" strokeLinejoin="round" />,
  },
];

export function LandingPage() {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader>
        <a
          href="#demo-schools"
          className="hidden rounded-md px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 sm:block dark:text-slate-300 dark:hover:text-white"
        >
          Demo Schools
        </a>
        <a
          href="#features"
          className="hidden rounded-md px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 sm:block dark:text-slate-300 dark:hover:text-white"
        >
          Features
        </a>
      </PublicHeader>
      <main className="flex-1">
        <Hero />
        <DemoSchools />
        <Features />
      </main>
      <SiteFooter />
    </div>
  );
}

function Hero() {
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-slate-50 dark:from-indigo-950/50 dark:via-slate-950 dark:to-slate-950">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-24">
        <div>
          <p className="inline-flex rounded-full bg-indigo-100 px-3 py-1 text-xs font-semibold text-indigo-700 dark:bg-indigo-900/60 dark:text-indigo-200">
            Digital library for schools
          </p>
          <h1 className="mt-4 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
            Your school's books, open on every teacher's screen
          </h1>
          <p className="mt-5 max-w-xl text-lg text-slate-600 dark:text-slate-300">
            Lectern puts the books you publish in front of the teachers who use them: assigned school by school, read in the browser, and
            kept safe from casual copying.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink to="/admin" className="px-5 py-3 text-base">
              Admin Dashboard
            </ButtonLink>
            {/* The spec: "A 'Learn More' button does nothing" (docs/decisions/0021). The header's 'Features' link leads to Key Features. */}
            <Button variant="secondary" className="px-5 py-3 text-base">
              Learn More
            </Button>
          </div>
        </div>
        <HeroIllustration />
      </div>
    </section>
  );
}

function HeroIllustration() {
  const spines = ["#6366f1", "#10b981", "#f59e0b", "#ef4444", "#0ea5e9", "#8b5cf6"];
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md">
      <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-2xl shadow-indigo-900/10 dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-3 flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rounded-full bg-red-400" />
          <span className="h-2.5 w-2.5 rounded-full bg-amber-400" />
          <span className="h-2.5 w-2.5 rounded-full bg-emerald-400" />
          <span className="ml-3 h-4 flex-1 rounded bg-slate-100 dark:bg-slate-800" />
        </div>
        <div className="grid grid-cols-3 gap-3">
          {spines.map((color, i) => (
            <div key={color} className="rounded-lg border border-slate-100 p-2 dark:border-slate-800">
              <div
                className="flex aspect-[3/4] items-end rounded-md p-2"
                style={{ background: `linear-gradient(160deg, ${color}, ${color}99)` }}
              >
                <div className="h-1.5 w-2/3 rounded bg-white/80" />
              </div>
              <div className="mt-2 h-1.5 rounded bg-slate-200 dark:bg-slate-700" style={{ width: `${60 + ((i * 13) % 35)}%` }} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

function DemoSchools() {
  return (
    <section id="demo-schools" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6">
      <h2 className="text-3xl font-bold tracking-tight">Demo Schools</h2>
      <p className="mt-2 text-slate-600 dark:text-slate-400">Open a school's portal as its teachers see it.</p>
      <div className="mt-8 grid gap-6 md:grid-cols-2">
        {DEMO_SCHOOLS.map((school) => (
          <article
            key={school.slug}
            className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900"
          >
            <div className={`h-2 bg-gradient-to-r ${school.accent}`} />
            <div className="p-6">
              <h3 className="text-xl font-semibold">{school.name}</h3>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{school.blurb}</p>
              <ButtonLink to={`/${school.slug}`} className="mt-6">
                Access School Portal
              </ButtonLink>
            </div>
          </article>
        ))}
      </div>
      <div className="mt-10 rounded-2xl border border-dashed border-slate-300 p-6 dark:border-slate-700">
        <h3 className="font-semibold">Go straight to a demo dashboard</h3>
        <ul className="mt-3 flex flex-wrap gap-3">
          {DEMO_DASHBOARDS.map((school) => (
            <li key={school.slug}>
              <Link
                to={`/schools/${school.slug}/dashboard`}
                className="inline-flex items-center gap-1 rounded-lg bg-slate-100 px-3 py-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50 dark:bg-slate-800 dark:text-indigo-300 dark:hover:bg-slate-700"
              >
                {school.name}
                <span aria-hidden="true">→</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Features() {
  return (
    <section id="features" className="scroll-mt-20 border-t border-slate-200 bg-white py-16 dark:border-slate-800 dark:bg-slate-900/50">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 className="text-3xl font-bold tracking-tight">Key Features</h2>
        <div className="mt-8 grid gap-6 md:grid-cols-3">
          {FEATURES.map((feature) => (
            <article key={feature.title} className="rounded-2xl border border-slate-200 p-6 dark:border-slate-800">
              <div className="flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-100 text-indigo-700 dark:bg-indigo-900/60 dark:text-indigo-200">
                <Icon className="h-6 w-6">{feature.icon}</Icon>
              </div>
              <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{feature.body}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
