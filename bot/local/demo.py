"""The demo league `pinleague run` sets up when no Discord token is configured: two teams with submitted
rosters (Bob and Heidi captain them), two venues and their machines.

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
:member add frank
:member add grace
:member add heidi Captain
:member add ivan
:member add judy
:member add ken
:member add leo
/roster add team:"Flipper Kings" member:@bob role:captain adult:true
/roster add team:"Flipper Kings" member:@carol role:starter adult:true
/roster add team:"Flipper Kings" member:@dan role:starter adult:true
/roster add team:"Flipper Kings" member:@erin role:starter adult:true
/roster add team:"Flipper Kings" member:@frank role:starter adult:true
/roster add team:"Flipper Kings" member:@grace role:starter adult:true
/roster submit team:"Flipper Kings"
/roster add team:"Tilt Warriors" member:@heidi role:captain adult:true
/roster add team:"Tilt Warriors" member:@ivan role:starter adult:true
/roster add team:"Tilt Warriors" member:@judy role:starter adult:true
/roster add team:"Tilt Warriors" member:@ken role:starter adult:true
/roster add team:"Tilt Warriors" member:@leo role:starter adult:true
/roster add team:"Tilt Warriors" member:@alice role:starter adult:true
/roster submit team:"Tilt Warriors"
""".splitlines()

DEMO_ACTOR = "owner"
