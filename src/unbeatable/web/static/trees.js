// The ARIA tree pattern, shared by Explore and Learn: list items with
// role=treeitem, one tab stop, arrow keys to move and to open and close.

/** An item's level in the tree: its aria-level, else how deep its nesting is. */
function levelOf(item) {
  const stated = Number(item.getAttribute("aria-level"));
  if (stated) return stated;
  let level = 1;
  for (let up = item.parentElement.closest('[role="treeitem"]'); up; up = up.parentElement.closest('[role="treeitem"]')) level += 1;
  return level;
}

/** Arrow keys, Home/End, Enter/Space over a role=tree with a roving tabindex;
 * ``toggle(item)`` opens or closes an item, ``activate(item)`` (if given)
 * acts on one that does not open (Learn edits a leaf). The items are read in
 * document order with their levels, so a tree may nest its items in groups
 * (Explore) or lay them out flat with aria-level (Learn's picture). Keys
 * typed in a field within an item are the field's. */
export function treeKeys(tree, toggle, activate = null) {
  tree.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea, button")) return;
    const items = [...tree.querySelectorAll('[role="treeitem"]')].filter((item) => item.offsetParent !== null);
    const current = event.target.closest('[role="treeitem"]');
    const at = items.indexOf(current);
    if (at < 0) return;
    const go = (item) => {
      if (!item) return;
      for (const other of items) other.tabIndex = -1;
      item.tabIndex = 0;
      item.focus();
    };
    const level = levelOf(current);
    const expanded = current.getAttribute("aria-expanded");
    switch (event.key) {
      case "ArrowDown": go(items[at + 1]); break;
      case "ArrowUp": go(items[at - 1]); break;
      case "Home": go(items[0]); break;
      case "End": go(items[items.length - 1]); break;
      case "ArrowRight":
        if (expanded === "false") toggle(current);
        else if (expanded === "true" && items[at + 1] && levelOf(items[at + 1]) === level + 1) go(items[at + 1]);
        break;
      case "ArrowLeft":
        if (expanded === "true") toggle(current);
        else go(items.slice(0, at).reverse().find((item) => levelOf(item) === level - 1));
        break;
      case "Enter":
      case " ":
        if (expanded !== null) toggle(current);
        else if (activate) activate(current);
        break;
      default:
        return;
    }
    event.preventDefault();
  });
}

/** A tree item named ``name`` for screen readers, showing ``label``. */
export function treeItem(name, label) {
  const item = document.createElement("li");
  item.setAttribute("role", "treeitem");
  item.tabIndex = -1;
  item.setAttribute("aria-label", name);
  const row = document.createElement("span");
  row.className = "node";
  row.append(label);
  item.append(row);
  return item;
}

/** A line in a tree that is not an item: "3 more moves: …", "The game is over." */
export function treeNote(text) {
  const note = document.createElement("li");
  note.setAttribute("role", "none");
  note.className = "note";
  note.textContent = text;
  return note;
}
