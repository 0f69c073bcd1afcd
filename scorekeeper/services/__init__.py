"""What the pages and the API share over the game's own model: a game's and a group's
hands, history and payments kept and read, who may edit them, a game's record for its
group and its JSON document, the rulings kept. No Blueprint lives here: every feature
package stands on these and on the layers below, never on another feature."""
