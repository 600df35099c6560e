"""Short rules explanations in our own words, shown on hover and tap.

Three tables: ACTIONS (cost 1 AP), DEEDS (free), KEYWORDS (terms, attributes, card types and
keywords found on cards). What one offered choice costs and does is not worked out here: the
engine states it with the choice (view["choices"][i]["explain"]).
"""

from __future__ import annotations

ACTIONS: dict[str, tuple[str, str]] = {
    "move": (
        "Move",
        "Costs 1 AP. Walk to a neighbouring location (not diagonally), or jump between two "
        "locations that show the same shortcut symbol. If the new place has no encounter and "
        "has a terrain, a fresh encounter of that terrain is drawn there. Enemies there attack.",
    ),
    "clear": (
        "Clear",
        "Costs 1 AP. Remove one obstacle here. With no obstacle, you may instead try to defeat "
        "a plot here by passing its test; a defeated plot becomes a rumour in your hand and "
        "gives you a loot token.",
    ),
    "search": (
        "Search",
        "Costs 1 AP. Only where there is no encounter and no obstacle: draw a new encounter of "
        "this location's terrain and place it here.",
    ),
    "hide": (
        "Hide",
        "Costs 1 AP. You become hidden: enemies you meet let you choose to slip past them "
        "(a sneak test) or to strike first. You cannot use deeds or join teams while hidden.",
    ),
    "confront": (
        "Confront",
        "Costs 1 AP. Test one attribute against a place, quest or stranger here. Your "
        "successes pile up against it; once they reach its value in that attribute you "
        "defeat it and claim a reward. Strangers only answer to influence.",
    ),
    "enemy": (
        "Make an enemy",
        "Costs 1 AP. Put one of your enemy tokens on a stranger here: from now on it is your "
        "enemy (and only yours), and you fight it straight away.",
    ),
    "rest": (
        "Rest",
        "Costs 1 AP. Only where there is no encounter and you are hurt: heal 1 HP. Your AP "
        "does not go back up.",
    ),
    "discover": (
        "Discover",
        "Costs 1 AP. Play a rumour from your hand as an asset, at the location the card names.",
    ),
    "market": (
        "Market",
        "Costs 1 AP. At a market: heal (1 gold per HP), buy one of the top 3 cards of a "
        "reward deck, and/or sell rumours and assets for half their gold value.",
    ),
    "regale": (
        "Regale",
        "Costs 1 AP. Pay 5 gold and one card per keyword to complete your current saga "
        "chapter (once per day), or attempt an interlude or finale at its location. Each "
        "chapter raises your max HP and may teach a skill.",
    ),
    "camp": (
        "Make camp",
        "Free. Give up your remaining AP and take no more turns today. The first hero to camp "
        "goes first tomorrow. When every hero has camped, night falls.",
    ),
}

DEEDS: dict[str, tuple[str, str]] = {
    "unhide": (
        "Stop hiding",
        "Free, at any time, even on someone else's turn: you are no longer hidden.",
    ),
    "team": (
        "Team up",
        "Free. Ask a hero at your location (neither of you hidden) to help with one "
        "encounter, battle or finale: each helper adds a die to your tests and fights beside "
        "you. You share out the reward; promises are not binding.",
    ),
    "give": (
        "Exchange",
        "Free. Offer gold, a loot token, a rumour, or an item or spell asset to a hero at your "
        "location. It only happens if they accept.",
    ),
    "trade": (
        "Trade",
        "Free. Offer one thing of yours for one thing of a hero at your location, as one "
        "agreement: both change hands only if they accept.",
    ),
    "overcome": (
        "Overcome",
        "Free. If an encounter here has a weakness that matches a keyword on one of your "
        "cards in play, you defeat it outright and claim its reward.",
    ),
    "resolve": (
        "Use",
        "Free. Use the ability of an asset or loot token. Some abilities veil the card: it "
        "stops counting until the next dawn.",
    ),
    "assault": (
        "Assault",
        "Free. After finishing your finale, attack the ancient at its location. Its plots "
        "join it; no surprise, no evading, no escape. Damage to it stays.",
    ),
    "fate": (
        "Call on fate",
        "Once per day: spend a fate token or discard a rumour to add 1 success to a test, "
        "after seeing the dice.",
    ),
}

KEYWORDS: dict[str, tuple[str, str]] = {
    "hp": (
        "HP",
        "Health points. At 0 HP you are defeated: you camp, drop your gold and a card, "
        "and go back to the centre. Losing HP also costs the same number of AP.",
    ),
    "ap": (
        "AP",
        "Action points. Each action costs 1. At dawn your AP is refilled up to your current HP.",
    ),
    "gold": (
        "Gold",
        "Pays for chapters, market purchases and healing. Gold plus the gold value "
        "of your assets is your VP (victory points).",
    ),
    "fate": ("Fate", "Tokens you can spend, once per day, for +1 success on a test."),
    "vp": ("VP", "Victory points: gold plus the gold value of your assets in play."),
    "hidden": (
        "Hidden",
        "Enemies can be slipped past with a sneak test. No deeds, teams or "
        "strangers while hidden. Everyone stops hiding at dawn.",
    ),
    "side": ("Skull or rose", "Shadows only: the choose-sides token some cards look at."),
    "enemy_tokens": (
        "Enemy tokens",
        "Placed on strangers that turn against you; such a stranger is your enemy, and only yours.",
    ),
    "fight": ("Fight", "Attribute for battles and for some confrontations."),
    "study": ("Study", "Attribute for learning, riddles and lore."),
    "sneak": ("Sneak", "Attribute for stealth and for evading enemies."),
    "influence": ("Influence", "Attribute for talking; the only one strangers answer to."),
    "success": ("Success", "Each die showing 5 or 6 (4-6 on the easier setting) is a success."),
    "surprise": ("Surprise", "The side with surprise rolls 1 extra die in the first battle round."),
    "evade": (
        "Evade",
        "A hidden hero may try to slip past an enemy: a sneak test needing as "
        "many successes as the enemy's sneak.",
    ),
    "escape": (
        "Escape",
        "After a battle round where nobody fell, you may flee: you camp and "
        "move to the nearest location without enemies.",
    ),
    "gloom": (
        "Gloom",
        "A location flipped to its dark side by a night card. At night every "
        "hero standing in gloom loses HP equal to its gloom value.",
    ),
    "colour": (
        "Colour side",
        "The location's daytime side. The number shown is what it will "
        "cost in HP each night once it falls into gloom.",
    ),
    "weather": (
        "Weather",
        "A night card that changes tests or hurts heroes everywhere until "
        "another weather replaces it.",
    ),
    "night": (
        "Night",
        "After everyone camps: gloom hurts, a night card is drawn and its "
        "location falls into gloom, then dawn heals the defeated and refills AP.",
    ),
    "first": ("First hero", "Acts first each day and makes the choices night cards ask for."),
    "shortcut": (
        "Shortcut",
        "Two locations with the same symbol are linked: a move between "
        "them costs 1 AP like any other.",
    ),
    "market": ("Market", "Here you can heal, buy and sell with the market action."),
    "obstacle": ("Obstacle", "Blocks searching and confronting here until someone clears it."),
    "plot": (
        "Plot",
        "An ancient's scheme placed on the map. It can be defeated with the clear "
        "action; undefeated plots make the ancient stronger when it is assaulted.",
    ),
    "ancient": (
        "Ancient",
        "The great foe. It wakes when a hero completes a finale and can "
        "only be fought with the assault deed.",
    ),
    "rumour": (
        "Rumour",
        "A card in your hand: pay saga keywords with it, discover it, sell "
        "it, or burn it for fate.",
    ),
    "asset": ("Asset", "A card in play in front of you: it gives its bonus dice and keywords."),
    "veiled": ("Veiled", "A used card turned aside: it gives no bonus until dawn."),
    "loot": ("Loot", "Random tokens from the loot bag, each usable once."),
    "saga": (
        "Saga",
        "Your hero's story: four chapters (Shadows adds interludes), then a "
        "finale whose totem is your reward and which lets you assault the ancient.",
    ),
    "chapter": ("Chapter", "Complete it by paying gold and one card for each keyword shown."),
    "enemy": ("Enemy", "An encounter you must fight when you share its location."),
    "place": ("Place", "An encounter to confront with its attributes; reward deck: title."),
    "quest": ("Quest", "An encounter to confront with its attributes; reward deck: spell."),
    "stranger": (
        "Stranger",
        "Confront with influence only. A failed talk may turn it into "
        "your enemy; reward deck: ally.",
    ),
    "event": ("Event", "Resolves at once when drawn, then is discarded."),
    "item": ("Item", "A reward card type (from enemies); counts as a keyword."),
    "title": ("Title", "A reward card type (from places); counts as a keyword."),
    "spell": ("Spell", "A reward card type (from quests); counts as a keyword."),
    "ally": ("Ally", "A reward card type (from strangers); counts as a keyword."),
    "weakness": (
        "Weakness",
        "A hero with a card in play bearing this keyword can overcome the encounter for free.",
    ),
    "keyword": ("Keyword", "Words on cards (fire, holy, lore...) that saga chapters ask for."),
    "fire": ("Fire", "A card keyword: flame, forge and burning things."),
    "holy": ("Holy", "A card keyword: faith, shrines and blessings."),
    "lore": ("Lore", "A card keyword: books, secrets and old knowledge."),
    "silver": ("Silver", "A card keyword: silverwork, moonlight and the bane of the unnatural."),
    "coin": ("Coin", "A card keyword: trade, debts and the guilds."),
    "beast": ("Beast", "A card keyword: animals and wild creatures."),
    "unique": (
        "Unique keyword",
        "Marked with a star on the card: you may keep only one asset "
        "with it; a new one replaces the old.",
    ),
    "blade": ("Blade (unique)", "A sword or knife; only one blade asset at a time."),
    "cloak": ("Cloak (unique)", "Only one cloak asset at a time."),
    "steed": ("Steed (unique)", "A mount; only one steed asset at a time."),
    "pet": ("Pet (unique)", "A small companion; only one pet asset at a time."),
    "banner": ("Banner (unique)", "A standard to rally behind; only one banner asset at a time."),
    "badlands": ("Badlands", "Terrain: dry wastes. Its encounters come from the badlands deck."),
    "forest": ("Forest", "Terrain: woods. Its encounters come from the forest deck."),
    "mountain": ("Mountain", "Terrain: peaks. Its encounters come from the mountain deck."),
    "plains": ("Plains", "Terrain: open land. Its encounters come from the plains deck."),
    "none": ("No terrain", "No encounter deck: searching and arriving never draw here."),
}

# What someone is busy deciding, by prompt kind ("Waiting for Ann to ...").
DECIDING: dict[str, str] = {
    "turn": "choose an action",
    "camp_confirm": "confirm making camp",
    "set8_deck": "pick a reward deck for a first rumour",
    "set8_keep": "keep one of two cards as a rumour",
    "fate": "decide whether to call on fate",
    "escape": "decide whether to fight on or escape",
    "escape_to": "choose where to escape to",
    "card_choice": "make a choice on a card",
    "loot_step": "choose gold or a loot token",
    "rumour_step": "choose a rumour",
    "trophy": "decide about a trophy",
    "market": "shop at the market",
    "market_buy": "choose a card to buy",
    "market_sell": "choose what to sell",
    "market_heal": "choose whom to heal",
    "team_offer": "answer a team offer",
    "gift_offer": "answer an exchange offer",
    "trade_pick": "choose what to trade",
    "trade_offer": "answer a trade offer",
    "engage_team": "decide whether to ask for help",
    "engage_order": "choose which enemy to fight first",
    "reward_split": "share out a reward",
    "hidden_engage": "decide whether to reveal or evade",
    "lose_card": "choose a card to lose",
    "discard_down": "discard down to the limit",
    "keyword": "choose a card to pay a keyword",
    "skill": "choose a new skill",
    "catch_up": "decide about a free chapter",
    "totem": "decide what to do with a totem",
    "choose_side": "choose skull or rose",
}


def deciding(kind: str) -> str:
    """The waiting phrase for a prompt kind, with a safe fallback for new kinds."""
    return DECIDING.get(kind, "decide")


def help_for(term: str) -> tuple[str, str] | None:
    """(title, text) for an action, deed or keyword name (a leading * marks unique), or None."""
    term = term.lstrip("*")
    for table in (ACTIONS, DEEDS, KEYWORDS):
        if term in table:
            return table[term]
    return None
