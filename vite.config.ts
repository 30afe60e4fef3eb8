import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { islands } from "./vite/islands.ts";
import { pdfjsAssets } from "./vite/pdfjs-assets.ts";
import { serverOnly } from "./vite/server-only.ts";

export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), tailwindcss(), reactRouter(), pdfjsAssets(), islands(), serverOnly()],
});
