"""Many bot-played games at once, and the balance report built from them."""
