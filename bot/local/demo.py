"""The demo league `pinleague run` sets up when no Discord token is configured.

It is built by typing ordinary commands as the server owner, so the demo exercises the real bot.
"""

DEMO_SETUP = """\
/league create name:"Demo Team League" format:team timezone:America/New_York commissioner_role:@Commissioner
/venue add name:"Ace Arcade" address:"12 Flipper Street"
/machine add venue:"Ace Arcade" model:Godzilla variant:Premium
/machine add venue:"Ace Arcade" model:"Medieval Madness"
/machine add venue:"Ace Arcade" model:"Attack from Mars"
/venue add name:"Tilt Tavern" address:"3 Plunger Lane"
/machine add venue:"Tilt Tavern" model:"Twilight Zone"
/machine add venue:"Tilt Tavern" model:"Foo Fighters" variant:Pro
/team create name:"Flipper Kings" evening:Tuesday home_venue:"Ace Arcade"
/team create name:"Tilt Warriors" evening:Tuesday home_venue:"Tilt Tavern"
/player register member:@alice ifpa_number:12345 ifpa_rank:850
/player register member:@bob
/player register member:@carol
/player register member:@dan
""".splitlines()

DEMO_ACTOR = "owner"
