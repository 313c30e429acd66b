// A small Markdown renderer for the rules documents (docs/rules/*.md) and the players' guides
// (web-client/guide/*.md): headings, paragraphs, nested lists, tables, blockquotes, fenced code,
// inline code, bold, italics, links, and card groups written {{3C 3D RJ}} (left as a span that
// cardPictures draws). Text is escaped first; links are kept only for http(s), relative and
// in-page targets.

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function inline(text) {
  const codes = [];
  let out = esc(text).replace(/`([^`]+)`/g, (_, code) => {
    codes.push(code);
    return `\u0000${codes.length - 1}\u0000`;
  });
  out = out
    // {{3C 3D RJ}}: a group of cards, drawn as pictures by the page (cardPictures)
    .replace(/\{\{((?:[3-9TJQKA2][SHCD]|BJ|RJ)(?: (?:[3-9TJQKA2][SHCD]|BJ|RJ))*)\}\}/g, '<span class="card-pics" data-cards="$1">$1</span>')
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, href) => {
      // in-page anchors stay (the page scrolls to them), a sibling rules document becomes its
      // rules page, an outside link stays outside; a link into the repository has no page here
      if (href.startsWith("#")) return `<a href="${href}" data-anchor="${href.slice(1)}">${label}</a>`;
      const sibling = href.match(/^(?:\.\/)?([\w-]+)\.md(#.*)?$/);
      if (sibling) return `<a href="#/rules/${sibling[1]}">${label}</a>`;
      if (/^https?:/.test(href)) return `<a href="${href}" rel="noopener noreferrer">${label}</a>`;
      return label;
    });
  // eslint-disable-next-line no-control-regex -- NUL marks the code spans set aside above
  return out.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${codes[Number(i)]}</code>`);
}

function tableHtml(lines) {
  const cells = (line) => line.replace(/^\s*\|/, "").replace(/\|\s*$/, "").split("|").map((c) => c.trim());
  const head = cells(lines[0]);
  const aligns = cells(lines[1]).map((c) => (c.endsWith(":") ? (c.startsWith(":") ? "center" : "right") : ""));
  const row = (tag, values) =>
    `<tr>${values.map((v, i) => `<${tag}${aligns[i] ? ` style="text-align:${aligns[i]}"` : ""}>${inline(v)}</${tag}>`).join("")}</tr>`;
  const body = lines.slice(2).map((l) => row("td", cells(l))).join("");
  return `<div class="table-wrap"><table><thead>${row("th", head)}</thead><tbody>${body}</tbody></table></div>`;
}

function listHtml(items) {
  // items: [{indent, ordered, text}] → nested lists by indentation
  let html = "";
  const stack = [];
  for (const item of items) {
    while (stack.length && item.indent < stack.at(-1).indent) {
      html += `</li></${stack.pop().tag}>`;
    }
    const top = stack.at(-1);
    if (!top || item.indent > top.indent) {
      const tag = item.ordered ? "ol" : "ul";
      stack.push({ indent: item.indent, tag });
      html += `<${tag}><li>`;
    } else {
      html += "</li><li>";
    }
    html += inline(item.text);
  }
  while (stack.length) html += `</li></${stack.pop().tag}>`;
  return html;
}

export function markdown(source) {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let i = 0;
  // GitHub's anchors: lower case, punctuation dropped, spaces to hyphens
  const slug = (text) =>
    text
      .toLowerCase()
      .replace(/<[^>]+>|`/g, "")
      .replace(/[^\w\u4e00-\u9fff\s-]/g, "")
      .trim()
      .replace(/\s/g, "-");
  while (i < lines.length) {
    const line = lines[i];
    if (/^\s*$/.test(line)) {
      i++;
      continue;
    }
    const fence = line.match(/^```(\w*)/);
    if (fence) {
      const body = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) body.push(lines[i++]);
      i++;
      out.push(`<pre><code>${esc(body.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      const level = heading[1].length;
      out.push(`<h${level} id="${slug(heading[2])}">${inline(heading[2])}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      out.push(tableHtml(rows));
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) body.push(lines[i++].replace(/^\s*>\s?/, ""));
      out.push(`<blockquote>${markdown(body.join("\n"))}</blockquote>`);
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const items = [];
      while (i < lines.length && !/^\s*$/.test(lines[i])) {
        const m = lines[i].match(/^(\s*)([-*+]|\d+[.)])\s+(.*)$/);
        if (m) items.push({ indent: m[1].length, ordered: /\d/.test(m[2]), text: m[3] });
        else if (items.length) items.at(-1).text += ` ${lines[i].trim()}`;
        i++;
      }
      out.push(listHtml(items));
      continue;
    }
    if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      out.push("<hr>");
      i++;
      continue;
    }
    const para = [];
    while (i < lines.length && !/^\s*$/.test(lines[i]) && !/^(#{1,6}\s|```|\s*\||\s*>|\s*([-*+]|\d+[.)])\s)/.test(lines[i])) {
      para.push(lines[i++].trim());
    }
    if (!para.length) {
      out.push(`<p>${inline(lines[i++])}</p>`);
      continue;
    }
    out.push(`<p>${inline(para.join(" "))}</p>`);
  }
  return out.join("\n");
}
