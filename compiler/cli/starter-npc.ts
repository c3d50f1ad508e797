// The files `ndfc create` writes: a small starter NPC named after the user's choice, in NDF JSON
// or (--dsl) the rule DSL, each with its own README. Written from here rather than copied from
// datasets/example, so a new NPC holds no example entries to delete and names nothing "example".
// Lint-clean with --strict (test/newcomer/create.test.ts).

export type StarterFiles = Record<string, string>;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `shown` is where the NPC is, as its README's commands should say it (`datasets/mybot`). */
export function ndfStarter(name: string, slug: string, shown: string): StarterFiles {
  return {
    "config.json": json({ npc_name: name, creator: "you", sentence_threshold: 0.65, word_threshold: 0.75 }),
    [`dataset/dataset_${slug}.json`]: json([
      { intent: "greet", category: "chat", input: ["hello", "hi there", "good morning"], output: [`Hello, I am ${name}.`, "Hi! What can I do?"], permission: "yolo" },
      { intent: "help", category: "chat", input: ["what can you do", "help me"], output: "I can greet you and repeat what you say: try \"say good night\".", permission: "yolo" },
    ]),
    [`dataset/templates_${slug}.json`]: json([
      {
        intent: "repeat",
        category: "chat",
        type: "template",
        structure: [[{ tag: "<||vocab_say||>", type: "vocab", required: true }, { tag: "<||words||>", type: "string", required: true }]],
        output: "You said: <||words||>.",
        permission: "yolo",
      },
    ]),
    "dataset/types.json": json({ "<||number||>": "^\\d{1,9}$" }),
    "dataset/vocabulary/templates.json": json({ "<||vocab_say||>": ["say", "repeat", "echo"] }),
    "dataset/vocabulary/vocabulary.json": json({
      stop_words: ["the", "a", "an", "please"],
      thanking_words: ["thanks", "thank you"],
      greetings: ["Hello", "Hi"],
    }),
    "README.md": readme(name, slug, shown, [
      "- `config.json`: the NPC's name and thresholds.",
      `- \`dataset/dataset_${slug}.json\`: exact phrasings (\`input\`) and answers (\`output\`).`,
      `- \`dataset/templates_${slug}.json\`: a template: a word of \`<||vocab_say||>\`, then any words (type \`string\`) as the slot \`words\`.`,
      "- `dataset/types.json`: the regex of each typed slot (`<||number||>`: a template node of type `number`).",
      "- `dataset/vocabulary/templates.json`: the words of each vocab tag (`<||vocab_say||>`).",
      "- `dataset/vocabulary/vocabulary.json`: word lists (stop words, thanking words, greetings).",
    ]),
  };
}

export function dslStarter(name: string, slug: string, shown: string): StarterFiles {
  return {
    [`${slug}.rules`]: `# ${name}: a starter NPC in the ndfc rule DSL (compiler/sources/dsl/README.md has every form).
RuleSet.define ${JSON.stringify(name)} do
  synonym "repeat", "echo", means: "say"

  rule("hello", "hi there", "good morning") do
    output "Hello, I am ${name}.", "Hi! What can I do?"
    permission :yolo
  end
  rule("what can you do", "help me") do
    output "I can greet you and repeat what you say: try \\"say good night\\"."
    permission :yolo
  end
  rule("say :words") do
    output "You said: <||words||>."
    permission :yolo
  end
end
`,
    "README.md": readme(name, slug, shown, [`- \`${slug}.rules\`: the whole NPC: greetings, help, and a \`say :words\` pattern whose slot takes any words.`]),
  };
}

function readme(name: string, slug: string, shown: string, files: string[]): string {
  return `# ${name}

A starter NPC made by \`ndfc create\`. Its files:

${files.join("\n")}

Check it, build it and talk to it:

\`\`\`sh
npx ndfc lint ${shown}
npx ndfc build ${shown}   # → dist-npcs/${slug}.npc
npx ndfc ask dist-npcs/${slug}.npc "say good night"
npx ndfc chat dist-npcs/${slug}.npc
\`\`\`

Then replace the entries with your own; the repository's README explains every key.
`;
}
