"""Knight Fall: a team game of knights and demons (engine in `engine/`, content in `content/`)."""
