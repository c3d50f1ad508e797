// JSON Schemas for every NDF file kind. ndfc validates with them (ajv) and `ndfc schema` writes
// them out so editors can validate and complete NDF files.

const SCHEMA_BASE = "https://ndfc.dev/schemas/";
const DRAFT = "http://json-schema.org/draft-07/schema#";

const stringOrStrings = {
  oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
};

const tagPattern = "^<\\|\\|[^|<>]+\\|\\|>$";

const templateNode = {
  type: "object",
  description: "One node of a template path.",
  required: ["tag", "type"],
  allOf: [
    { if: { properties: { type: { const: "list" } }, required: ["type"] }, then: { required: ["list"] } },
    { if: { properties: { type: { const: "range" } }, required: ["type"] }, then: { required: ["range"] } },
  ],
  properties: {
    tag: {
      description: "A <||tag||>, or a list of alternative tags.",
      oneOf: [
        { type: "string", pattern: tagPattern },
        { type: "array", minItems: 1, items: { type: "string", pattern: tagPattern } },
      ],
    },
    type: {
      type: "string",
      minLength: 1,
      description: "`vocab`, a key of types.json without brackets (path, number, string…), or the ndfc extensions `list` and `range`.",
    },
    required: { type: "boolean", description: "Whether the node must match (default true)." },
    list: {
      type: "string",
      minLength: 1,
      description: "ndfc extension, with type `list`: the value list of vocabulary/lists.json whose spoken forms this slot matches; the slot holds the canonical value.",
    },
    range: {
      type: "object",
      description: "ndfc extension, with type `range`: an integer slot in [min, max], written in digits or number words, optionally with a glued unit (`50%`).",
      required: ["min", "max"],
      additionalProperties: false,
      properties: { min: { type: "integer" }, max: { type: "integer" }, unit: { type: "string", maxLength: 4 } },
    },
  },
};

/** Keys a template node may have (others are reported and ignored). */
export const KNOWN_NODE_KEYS = Object.keys(templateNode.properties);

/** A list or expansion name. */
const NAME = "^[A-Za-z_][A-Za-z0-9_]*$";
const nodeRef = { $ref: "#/definitions/node" };
const sequence = { type: "array", items: nodeRef, description: "Nodes one after another." };
const groupRequired = { type: "boolean", description: "false: the whole group may be left out (default true)." };

/** ndfc's group nodes; each is told apart from a plain node by its one key (choice, permutation, expansion). */
const choiceNode = {
  type: "object",
  description: "ndfc extension: alternative node sequences, e.g. [[<turn>, <on>], [<switch>, <on>]]; an empty one makes the group optional.",
  required: ["choice"],
  additionalProperties: false,
  properties: { choice: { type: "array", minItems: 1, items: sequence }, required: groupRequired },
};

const permutationNode = {
  type: "object",
  description: "ndfc extension: node sequences that may come in any order (at most 4).",
  required: ["permutation"],
  additionalProperties: false,
  properties: { permutation: { type: "array", minItems: 1, items: { ...sequence, minItems: 1 } }, required: groupRequired },
};

const expansionNode = {
  type: "object",
  description: "ndfc extension: the nodes of a named expansion of vocabulary/expansions.json, as if written here.",
  required: ["expansion"],
  additionalProperties: false,
  properties: { expansion: { type: "string", pattern: NAME }, required: groupRequired },
};

/** One element of a structure path: a plain node, or one of ndfc's group nodes (recursive). */
const node = {
  if: { type: "object", required: ["choice"] },
  then: choiceNode,
  else: {
    if: { type: "object", required: ["permutation"] },
    then: permutationNode,
    else: { if: { type: "object", required: ["expansion"] }, then: expansionNode, else: templateNode },
  },
};

const toolArguments = {
  properties: {
    command: { type: "string" },
    explanation: { type: "string" },
    goal: { type: "string" },
    mode: { type: "string" },
  },
};

/** OpenAI's shape, as the OpenAI API and VS Code write it: `arguments` is a JSON string or an object. */
const openAiTool = {
  required: ["function"],
  properties: {
    type: { const: "function" },
    id: { type: "string" },
    function: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string", minLength: 1 }, arguments: { type: ["string", "object"], ...toolArguments } },
    },
  },
};

const ndfTool = {
  required: ["name"],
  properties: { name: { type: "string", minLength: 1 }, arguments: { type: "object", ...toolArguments } },
};

const tool = {
  type: "object",
  description: "A tool call, `{name, arguments}` or OpenAI's `{type: \"function\", function: {name, arguments}}`; `arguments.command` of run_in_terminal is a shell command.",
  if: { required: ["function"] },
  then: openAiTool,
  else: ndfTool,
};

const entry = {
  type: "object",
  description: "An NDF entry: exact inputs and/or template structure, with responses and tools. Extra keys become <||key||> tags.",
  properties: {
    input: { ...stringOrStrings, description: "Exact phrasings." },
    output: { ...stringOrStrings, description: "Responses; one is chosen." },
    message: { ...stringOrStrings, description: "Alias of output." },
    thinking: { ...stringOrStrings, description: "Inner monologue; one is chosen." },
    description: { type: "string" },
    tools: { type: "array", items: tool },
    permission: { enum: ["ask", "yolo", "auto"], description: "Missing means ask." },
    category: { type: "string" },
    intent: { type: "string", minLength: 1 },
    slots: {
      type: "object",
      description: "ndfc extension: fixed slots the answer carries whatever the words ({\"domain\": \"light\"}); captured slots of the same name win.",
      additionalProperties: { type: "string" },
    },
    type: { const: "template" },
    structure: {
      type: "array",
      description: "Alternative paths, each a list of nodes.",
      items: { type: "array", minItems: 1, items: nodeRef },
    },
    context: {
      description: "Follow-up entries: a non-empty list replaces the active context, [] clears it.",
      type: "array",
      items: { $ref: "#/definitions/entry" },
    },
  },
};

/** A file mapping names of the form `namePattern` to `values`. */
const nameMap = (id: string, title: string, namePattern: string, values: object) => ({
  $schema: DRAFT,
  $id: `${SCHEMA_BASE}${id}.json`,
  title,
  type: "object",
  propertyNames: { pattern: namePattern },
  additionalProperties: values,
});

const entriesFile = (id: string, title: string) => ({
  $schema: DRAFT,
  $id: `${SCHEMA_BASE}${id}.json`,
  title,
  type: "array",
  items: { $ref: "#/definitions/entry" },
  definitions: { entry, node },
});

export const NDF_SCHEMAS = {
  config: {
    $schema: DRAFT,
    $id: `${SCHEMA_BASE}config.json`,
    title: "NDF config.json",
    type: "object",
    properties: {
      npc_name: { type: "string", minLength: 1 },
      name: { type: "string", minLength: 1 },
      creator: { type: "string" },
      sentence_threshold: { type: "number", minimum: 0, maximum: 1 },
      word_threshold: { type: "number", minimum: 0, maximum: 1 },
      threshold: { type: "number", minimum: 0, maximum: 1, description: "Read as sentence_threshold." },
      synonym_contribution: { type: "number", minimum: 0, maximum: 1 },
      suggestions: { type: "integer", minimum: 0 },
      matcher: { enum: ["auto", "learned", "lexical"], description: "auto (default): the learned stage ships when cross-validation says it answers enough unseen phrasings; learned: always; lexical: never." },
      learned_threshold: { type: "number", minimum: 0, description: "Margin the learned stage's winner needs over its runner-up (default: chosen by cross-validation)." },
      wordnet_neighbours: { type: "boolean", description: "With ndfc build --wordnet: also read each word's narrower, broader and similar words as weak synonyms (default true)." },
    },
  },
  dataset: entriesFile("dataset", "NDF dataset_*.json / templates_*.json / personality.json"),
  types: nameMap("types", "NDF types.json: <||type||> → regex", tagPattern, { type: "string" }),
  vocabularyTemplates: nameMap("vocabulary-templates", "NDF vocabulary/templates.json: <||vocab_x||> → synonyms", tagPattern, {
    type: "array",
    items: { type: "string", minLength: 1 },
  }),
  lists: nameMap("vocabulary-lists", "ndfc extension vocabulary/lists.json: value lists for list slots, each spoken form → canonical value", NAME, {
    type: "object",
    minProperties: 1,
    additionalProperties: { type: "string" },
  }),
  expansions: {
    ...nameMap("vocabulary-expansions", 'ndfc extension vocabulary/expansions.json: named node sequences, used in a structure path as {"expansion": "name"}', NAME, {
      type: "array",
      minItems: 1,
      items: nodeRef,
    }),
    definitions: { node },
  },
  vocabulary: {
    $schema: DRAFT,
    $id: `${SCHEMA_BASE}vocabulary.json`,
    title: "NDF vocabulary/vocabulary.json: named word lists",
    type: "object",
    additionalProperties: { type: "array", items: { type: "string" } },
  },
} as const;

export type SchemaKind = keyof typeof NDF_SCHEMAS;

/** Keys an entry may have (used for did-you-mean on unknown keys). */
export const KNOWN_ENTRY_KEYS = Object.keys(entry.properties);
export const KNOWN_CONFIG_KEYS = Object.keys(NDF_SCHEMAS.config.properties);
