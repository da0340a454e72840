// The ARIA tree pattern, shared by Explore and Learn: list items with
// role=treeitem, one tab stop, arrow keys to move and to open and close.

/** Arrow keys, Home/End, Enter/Space over a role=tree with a roving tabindex;
 * ``toggle(item)`` opens or closes an item. */
export function treeKeys(tree, toggle) {
  tree.addEventListener("keydown", (event) => {
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
    const expanded = current.getAttribute("aria-expanded");
    switch (event.key) {
      case "ArrowDown": go(items[at + 1]); break;
      case "ArrowUp": go(items[at - 1]); break;
      case "Home": go(items[0]); break;
      case "End": go(items[items.length - 1]); break;
      case "ArrowRight":
        if (expanded === "false") toggle(current);
        else if (expanded === "true") go(current.querySelector('[role="treeitem"]'));
        break;
      case "ArrowLeft":
        if (expanded === "true") toggle(current);
        else go(current.parentElement.closest('[role="treeitem"]'));
        break;
      case "Enter":
      case " ":
        if (expanded !== null) toggle(current);
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
