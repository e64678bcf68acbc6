"""Gated Memory formation prompts: admission, multi-intent split, scope, enrichment."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from dmem.prompts.render import build, fact_line, memories_block, messages_block, numbered, system_text
from dmem.silence import silence_before, spoken
from dmem.state.schemas import Fact, MemoryRecord, Message

ADMIT_SYSTEM = system_text(
    "You are the admission gate of a long-term memory: you decide which utterances are worth "
    "remembering across future conversations.",
    "Judge each utterance of <current_exchange> whole, with what it answers and what it continues: "
    "<reference_history> holds the question it may reply to and tells what words like 'he', 'there' "
    "or 'that one' point to; <existing_memories> holds what is already stored. Never judge those two "
    "sections themselves.",
    [
        "Admit a personal relation: a preference, habit, possession, role or lasting affiliation "
        "(owning a car, being vegetarian, working at a clinic).",
        "Admit a semi-stable attribute (health, job, home) or a major life event (a move, a "
        "wedding, a new child, a graduation).",
        "Judge a reply together with the question it answers (the other speaker's turn just before "
        "it): a short reply that answers a question in <reference_history> states a fact, 'Tidewater' "
        "after 'What's your favourite board game?' a preference, 'Yes, twice last spring' after 'Have "
        "you ever sailed to the dunes?' a trip. Chat often drops the question mark: 'whats the "
        "band', 'ever been to the dunes', 'didnt u sell the van', 'is tomas still with the band', 'whos "
        "mirela' ask as much as with it, and 'my cousin lol' after 'whos mirela' answers: Mirela is the speaker's "
        "cousin, and 'my old boss from the bakery' after 'who's Ilse?' says Ilse is the speaker's old boss from the "
        "bakery. A wh-word with its own subject and verb straight after it opens no question, mark or not: 'WHAT "
        "she gave me a fiver', 'which would mean a steady wage' are statements. A greeting ('How are "
        "you?') or a tag ('..., you know?') is no such question, and a bare 'yep' or 'sure' says nothing "
        "unless it confirms a yes/no question that names a fact: 'yep' after 'didnt u sell the "
        "van in may' or 'oh ya he is' after 'is tomas still with the band' states it, and so does 'yep' after a "
        "check of a day or time ('so the 27th?'). Chat drops 'you' in a short question naming no one: 'why "
        "portuguese?' or 'favourite food?' asks the speaker, and the reply right after that speaks of them ('my "
        "brother married a girl from Braga', 'hmm. I think dumplings') answers it. A hedged answer written as a "
        "question ('probably dumplings?' after 'favourite food?', 'Tarbury maybe?' after 'where would you move?') "
        "answers it too, kept as hedged; a question asked back ('and you?', 'why?', 'no idea?') states nothing. A "
        "bare 'did' after the other's instruction ('call the plumber!' -> 'did.') says it was done: the speaker "
        "called the plumber. Chat drops 'your' in a "
        "short question as it drops 'my': 'how r lessons' (how are your lessons), 'hows the legs', 'name' (after "
        "the speaker's new budgie) or an asking word alone ('how much', 'of what', 'meh why') asks about the "
        "speaker's own thing, so 'can float now' or '32 each' right after answers it and states a fact, the "
        "question's turn one of its sources (a bare value such as '3 weeks' after 'how long' is said with its "
        "question, even when it would form alone); a reply that opens with its own check before its yes ('the "
        "12th? yes, i'm free then' after 'that friday?') answers the asker's proposal; not a "
        "longer question about the asker or the world ('how far is it to the coast'), nor a reply that only "
        "reacts, fills or says yes. Chat drops the auxiliary and the mark too: 'when u start', 'where u "
        "going', 'doing wat' (after 'new job') ask, so 'monday' or 'night baker' right after answers and "
        "states a fact; 'what u mean', 'wat u think' and 'wait what' ask about what was said, not the "
        "speaker's thing. A short line the speaker says with 'I' and a verb ('i threw up', 'i dont fly') "
        "states something of theirs when the turns just before give it a topic (their own 'the ferry "
        "tho', the other's 'I thought Portugal. Flying.').",
        "A short reply that confirms or denies the other speaker's yes/no question about the speaker's own doing "
        "('got it!!', 'i got it', 'yep', 'nope, didn't get it' after 'did you get the job at the boatyard?') states "
        "the question as the speaker's fact, negated on a denial ('Osric got the job at the boatyard', 'Osric did "
        "not get the job at the boatyard'), with the question's turn and the reply's as sources; a short value "
        "after 'when is your dentist appointment?' ('tuesday') states when it is. A line that opens with a verb "
        "and drops its subject ('GOT AN INTERVIEW', 'passed my theory test') is the speaker's. A bare 'yes' "
        "to an invitation naming nothing ('want to come?') and a yes/no about the world or someone the speaker "
        "does not speak for state nothing of the speaker. A yes or no to a yes/no question about someone the "
        "speaker knows of, named ('is Wenna still at the harbour office?' -> 'yep'; 'has Pell found work yet?' -> "
        "'nope'), states the question of them with the reply's polarity ('Wenna is still at the harbour office', "
        "'Pell has not found work yet'), both turns its sources; a thumbs-up or a check mark alone is a yes, a "
        "thumbs-down or a cross a no. A reply that repeats the terms of the question before answering ('is that a "
        "lot?' -> 'For a weekday in Gorran? Yes') is an answer, not a question: its echo and its yes go together. "
        "Judge the news, the question and the reply as one unit: 'how did the exam go?' -> "
        "'passed!!' states 'Osric passed the exam'; when the other speaker asks back a bare noun phrase about the "
        "speaker's short news ('i got it' -> 'THE JOB???' -> 'yeah', or 'GOT A CALLBACK' -> 'the theatre one??' "
        "-> 'mhm, friday at 6'), the reply names what the news was about ('Osric got the job'), with the three "
        "turns as sources. What a confirming reply says next goes into that same fact, not a new one. "
        "The same unit holds for any reply to a follow-up that names nothing ('what happened', 'hows it', "
        "'and??', 'why', 'tell me more'): the reply goes on with the speaker's own news just before that question, "
        "so a fragment says that news's detail ('failed my theory test' -> 'noo what happened' -> 'parking. obvs' "
        "is 'Tamsin failed her theory test on the parking'; 'got the allotment!' -> 'hows it' -> 'muddy. shed "
        "leaks' is 'Tamsin's allotment is muddy and its shed leaks'), written into the fact of that news when it "
        "is in <existing_memories> (the same memory, one more detail) and with the news, question and reply "
        "turns as sources. Filler ('lol idk'), a reply about the listener, and a question that names its own "
        "topic are judged as before.",
        "Admit an outcome said without its event ('aced it!!', 'got it omg') when the speaker named the awaited "
        "event before (a test, an interview, an audition) in <reference_history> or <existing_memories>: it "
        "tells how that event went. Alone, with no such event, it says nothing.",
        "Admit a turn that adds a detail to a topic of <existing_memories> (a new step of a stored "
        "plan, news about a stored condition or project).",
        "Judge a long message by what its sentences are about, not by whether each says 'I': a sentence "
        "whose subject is something of the speaker's own, named with 'my' earlier in the chat or the same "
        "message or stored as theirs in <existing_memories>, tells their world. After a stored 'Odile keeps "
        "bees on the allotment', 'The hives came through the winter. They swarmed twice in May and the new "
        "queen is calmer' is news about her bees; after 'my kiln has been clicking', 'The test firing "
        "reached temperature in the normal time' is about her kiln. The sentences after it that go on with "
        "that thing belong to it. Not the speaker's world: a general truth about such things ('Bees hate "
        "damp'), what may or can be, advice to the listener, a remark on what the listener said, or a "
        "thing of the world that only shares a word with a stored memory.",
        "Admit a short message that continues the speaker's own message just before it (chat "
        "splits one turn into several): 'Mostly street food from the islands.' after their 'We went "
        "to the night market last week.' says what they ate there.",
        "Terse chat tells one fact over several turns with the listener reacting between, and each piece "
        "belongs to the fact it goes on with: Corwen's 'the van failed inspection', Ilse's 'oh no', Corwen's "
        "'brakes + rust' says why it failed; 'sold the van' / 'nooo' / '900' says the price; 'the dog got "
        "out' / 'WHAT' / 'under the fence' / 'how far' / 'next door' says how and where. Admit such a short "
        "piece (a few words, no verb of its own) as a detail of the speaker's own fact a few turns before "
        "when every turn between is the listener's reaction, filler or a short question naming nothing of "
        "its own ('where', 'how much'). A short answer to the listener's question is such a fact, its topic "
        "the question's: Ilse's 'what are you up to saturday?', Corwen's 'market', Ilse's 'oh nice', Corwen's "
        "'jam stall' says what he does there. The fact must state something: a question or offer of the speaker's "
        "('want me to come over') has no piece, 'pic' or '[photo]' is none, and after the listener restates "
        "their question ('i mean the time') the reply answers that. Not a piece of it: a line with its own "
        "subject and verb ('got a "
        "ferret' opens something new), a dated event of its own ('dentist tomorrow'), thanks, an apology or "
        "a goodbye, a reaction ('phew', 'oops', 'not funny'), a new announcement ('news tho', 'guess what': "
        "what follows is new), a line about the listener, an answer to a question about another topic ('how "
        "are the lessons?'), anything after the listener's own news, or after a long pause.",
        "Admit an opinion about something named, even without 'I': 'the lake trail has the best "
        "views' is the speaker's view. Advice to the listener is not one.",
        "Admit what the speaker tells of their own world without 'I' when a later answer could use it "
        "(reusable content): a plan or booking, a price, another person's doing, their things, with a "
        "specific anchor (a number, a day or date, a time, a name): 'the plumber comes thursday at 8am', "
        "'quote was 2400 for the whole roof', 'Lenka got the flat on Rue Vasse'. News, general knowledge, "
        "descriptions and recipes in a long message, an evaluation ('that interview was a mess') or a "
        "remark on the listener are not.",
        "In a two-person chat a statement with specific content (a number, a time, a date, a day, a name) "
        "is the speaker's own news by default, even as a fragment and without 'I': 'also gig on friday! the "
        "copper room', 'Sunday 14 June', 'function room is booked, 8pm, they can seat 40 max', "
        "'window table for 6, 8:15', 'back from Tromsø, legs are done'. A reaction word beside it ('wow. lantern "
        "parade on the 9th') does not make it a reaction. Not the speaker's: news of the world at large ('the "
        "festival lineup dropped today'), an evaluation ('the wedding on saturday looked beautiful'), a "
        "generic truth, an order, a remark on the listener, or a fragment naming only a name (a title like "
        "'The Lantern Keeper by Ottilie Brandt', a reaction like 'haha classic Tomsbury').",
        "Judge a chat line whole, not clause by clause. In a two-person chat, a statement line that carries "
        "a specific detail (a name, a number, date or price, or a concrete thing: 'a heron took two of the koi "
        "overnight', 'mould behind the wardrobe, black', 'green tandem. 2019. 340', 'Marigold. The grey one. "
        "Osric is gutted, he found the gate open') is about the speaker's world by default, even with no 'I' in "
        "the sentence that holds the detail: its fragments borrow the line's subject, and the speaker's next "
        "short lines go on with it. Only a marker says otherwise: the listener as the subject ('you did 12 km'), "
        "advice or an order, a general statement ('Hamsters are easy pets', prices, sport, headlines), a "
        "reaction to or an evaluation of what the listener said ('that sounds fun', 'looks lovely'), filler, a "
        "passing state. 'Vague' means no detail at all ('ok', 'same', 'so much stuff'), not 'no I'.",
        "Chat drops 'my' and 'I': 'Cat knocked the vase off again', 'Sister just had her baby', "
        "'the twins start swimming next month' (the speaker's cat, sister, twins) and 'Haven't slept "
        "well since the move' are facts about the speaker, and so is 'The recital on friday was "
        "lovely' (an occasion they were at). A generic line ('Cats hate baths'), news ('The ferry "
        "strike starts monday') or a comment on what the other speaker just shared ('The puppy is "
        "adorable' after their 'We adopted a puppy!') is not.",
        "Admit news about a person or pet of the speaker's life that the conversation introduced, "
        "though it says no 'I': after the speaker's 'Dad loved the party', 'He keeps showing everyone the "
        "scarf you knitted him' is about their dad; after 'my cousin Elif moved to Porto', 'She teaches "
        "surfing there' is about Elif; after the listener's 'how's Lotte getting on?', 'She's loving the "
        "new job' is about the speaker's Lotte. A bare 'nan' or 'dad' in chat is the speaker's own ('nan's 90th "
        "thing', a few lines on 'she wants a garden party' is about their nan) while no one else who fits was "
        "named since. A name the speaker said that the listener then repeats is still the speaker's person "
        "('Bertrand made a paper crown', 'I like Bertrand more and more', 'he's having birthday drinks on Friday' "
        "is about the speaker's Bertrand), and the speaker's own 'I'm taking him to the vet' keeps their thread "
        "on ('Tobble is limping, he must have hurt a paw' ... 'he needs a week of rest' is about Tobble). "
        "A chat written all in lower case names people in lower case: 'ysolde texted me last night' then 'she "
        "got the flat' is about the speaker's Ysolde; after 'how's bertil doing?' the reply's 'he's back at "
        "work' is about Bertil; the one-word reply to 'what's it called?' names the pet the next 'he' means; "
        "'my sister's wedding' names the sister for the lines after it. "
        "A he/she follows its thread back to the name that opened it, whoever of the two said the lines "
        "between, while no one else is named on the way: after the speaker's 'Odile got the job!!' and the "
        "listener's 'congrats to her', 'she starts on march 3rd' is about the speaker's Odile; after the "
        "listener's 'Pim was amazing last night!' and the speaker's 'wasn't she?', 'she missed one' is about "
        "the speaker's Pim. The listener's own news ('Wren got the job!!') stays the listener's. "
        "A he/she after a short aside or 'then' is read the same: after 'my grandad is in hospital', 'good "
        "idea, he loves those' is about the speaker's grandad. A bare name opening a line is the speaker's "
        "person when the lines before made it so ('me and aurel went to the market', then 'aurel is stressed "
        "about the move'); one the listener made theirs, one never placed near the speaker, or someone public "
        "is not. "
        "A he/she that means the listener's person ('he must be glad "
        "it's over' after their 'my dad had his hip done'), a stranger, someone famous or nobody named is "
        "no fact of the speaker's life: reject it.",
        "Read casual chat as if it were written out: emoji, laughter ('haha', 'lmao') and markers ('tbh', "
        "'lowkey') say nothing, chat spellings stand for words ('gonna', 'rn', 'bc'), and a dropped 'I' is "
        "still the speaker: 'usually swim before work lol', 'big fan of pickled ginger', 'used to sing in a "
        "choir', 'biking to the lakes on sunday' are facts about them, and so is a rating of something they "
        "had ('the noodle bar was a solid 7/10', '10/10 would book again'). Reject what only sounds "
        "personal: a hypothetical ('if I won the raffle I'd buy a sailboat', 'imagine if we lived upstate'), "
        "a short compliment to the listener ('you're so kind', 'love that for you') and tiredness ('so "
        "sleepy', 'exhausted rn').",
        "Admit a question that presupposes a fact: 'did you finish the puzzle book I lent you?' "
        "tells that a book was lent; 'how did your driving test go?' tells the listener had one. People "
        "ask about what they know of each other: 'how's your new kitten settling in?', 'are you still at "
        "the flower shop?', 'when do you start at the new clinic?', 'is your brother still in the navy?' "
        "tell the listener's kitten, work, move and brother; 'want to come to my recital on friday?' and "
        "'have you tried the noodle bar I work at?' tell the asker's own. Read a question with what "
        "follows it in the same message: 'have you been to the night market on Pier Road? it's "
        "incredible' tells the asker has been; 'did you end up buying the van?' and 'did you get to "
        "see the lanterns after all?' tell what the listener meant to do; 'where are you working now, "
        "still the bakery?' tells where they worked; 'can you believe I finally passed my driving "
        "test?' and 'did I tell you we adopted a kitten?' tell the asker's own news. Read any other "
        "question for what it takes as known, and judge that like a statement: 'when did you visit "
        "Lisbon?' takes it the listener visited Lisbon, 'didn't you sit the exam in Ghent twice?' that "
        "they sat it, 'did you hear cousin Wilma is flying in from Perth?' tells the asker's news; admit "
        "it when what it takes as known names a place, a name, a number or a date. A yes/no question "
        "asks whether and takes nothing as known ('do you swim in Lisbon much?'), nor does a question "
        "about the world ('how big is Tallinn?') or an invitation naming no plan ('want to come over?', 'wanna "
        "hang out later?'). An invitation to a plan with a day, a date or a named place ('want to come to the "
        "pottery fair on saturday?', 'shall we do the Skellow ridge walk sunday?') tells that the asker invited "
        "the listener to it, and a yes or no after it settles it. A question that does "
        "something tells what it does: 'can i borrow ur drill' tells that the asker asked to borrow the "
        "listener's drill (and a 'sure' after it that it was lent), 'want my old tablet?' that the asker has an "
        "old tablet and offers it, 'heard oswin n fenna got engaged??' the news of named people it passes on; "
        "'can u lend me 200' asks for a sum, 'want ur old sofa?' (no one offers the listener their own thing) asks "
        "for the listener's sofa, 'be my best person?' asks the listener to take a role of the asker's; a yes or a "
        "no that settles such an ask, just after it or after a clarifying exchange ('be my best person?' -> "
        "'me??' -> 'u' -> 'YES'), states what it settles. "
        "'can I ask you something?', 'want some?' and 'did you hear what happened?' tell nothing. "
        "What the asker says of themselves before "
        "the question ('My name is Hanna, what's yours?', 'My name is Hanna, how can I reach you?', 'I spent the "
        "day re-tiling the bathroom, how about you?') is a statement: judge it as one, without the question's "
        "words. So is what the asker tells inside a question: a "
        "statement before a tag ('I told you I'm moving to Leeds, right?', 'I'm away all june, did I say?') or "
        "said with a question's rise ('you know I've been learning the fiddle since spring?'), what a judgement "
        "takes as known ('isn't it odd that I've never been on a train?' tells the asker never has), the asker's "
        "own plan with their own thing asked as advice ('should I take my canoe to the lake on sunday?' tells "
        "the asker has a canoe and might take it), and the asker's own line answering an echo ('Soup again? I "
        "had it yesterday.' tells the asker had soup yesterday). A teaser the asker answers themselves "
        "('Guess where I'm moving in June? Tarrowick!') tells the answer, and 'guess who got the library job' "
        "is the asker's own news as a riddle (unless it names someone else: 'guess who fell off their "
        "bike'). 'should I get a haircut?', 'am I late?', 'guess what? nothing' and "
        "'do I look tired?' tell nothing. A question that "
        "only asks for tastes or news "
        "presupposes nothing ('any trails that you like on weekends?', 'what other board games do you "
        "enjoy?', 'what's your favourite film?', 'any plans?', 'how was your day?', 'are you still "
        "there?', 'have you tried the night market?' with nothing after it): reject it. A line that "
        "opens like a question but asks nothing ('Will do!', 'Have a great trip', 'Can't wait for the "
        "regatta next week') is judged as a statement.",
        "Anywhere in the chat, a line whose first word is a verb and that has no subject of its own is the "
        "speaker's own news: 'camping at the dunes instead, end of june', 'moving the party to the bank "
        "holiday' and 'fixed my bike finally' are facts about them. Not so a verb with a subject of its own "
        "('camping is fun', 'moving went fine'), a deed with nothing to keep ('sending it now'), a reply about "
        "someone else ('doing better' after 'how's Tove?' is Tove's) or a question.",
        "A line that opens the chat again after a silence (hours or days; <silences> names it) answers "
        "nobody: the speaker came back to tell it, so it is their news though it is short and says no 'I'. "
        "After two days quiet, 'signed btw', 'home! best weekend' and 'ferry cancelled, stuck in port' are the "
        "speaker's news (and so is the next line when the first was only 'morning!!'). A question ('any "
        "news?'), a greeting or thanks alone, an 'ok' keeping an arrangement ('ok outside'), a line announcing "
        "news still to come ('good news and bad news') and a passing state stay rejected. Such a line keeps "
        "all it tells: in 'bad news, ferry cancelled. storm' the cancelled ferry is the news and the storm "
        "its cause, not a comment on the world.",
        "News can be asked for: when the speaker says there is some without telling it ('guess what', 'news', "
        "'ugh') and the listener asks for it with a prompt that names nothing ('?', 'go on', 'spill'), the "
        "speaker's next line is their news though it is a fragment: 'guess what' -> '?' -> 'kayaking' tells "
        "they took up kayaking, 'news' -> 'go on' -> 'got the flat' that they got the flat. A line that only "
        "replies, asks back, goes on with a sentence ('and one oar is') or says who knows stays rejected.",
        "A hedge is not a reason to reject: 'my favourite is probably the green one' and 'I think "
        "I'll move next spring' are admitted; the split marks them hedged.",
        "Reject transient states and one-off situations (a car rented for one trip, today's "
        "traffic), generic reactions ('that's so sweet!'), greetings, thanks, small talk and "
        "content-free replies ('ok', 'lol', 'sure').",
        "One verdict per utterance, in order: turn_id is its label (the bracketed number starting "
        "its line); the reason names the criterion in one sentence.",
    ],
)

SPLIT_SYSTEM = system_text(
    "You turn admitted utterances into the atomic facts a long-term memory stores.",
    "Split the utterances of <current_exchange> into standalone facts. <reference_history> and "
    "<existing_memories> resolve references and say what a reply answers; a fact states only what "
    "<current_exchange> adds.",
    [
        "One proposition per fact; 'gift ideas for my son' gives 'the user has a son' and 'the "
        "user looked for gift ideas'.",
        "Name the subject, never a pronoun ('Theo joined a community choir'); speaker = the name of "
        "the person the fact is about, as written.",
        "Reusable content said without 'I' is stored as said, attributed to the speaker: 'Mirela: the "
        "boiler guy comes Thursday at 8am' (with 'my' or the relation when the chat gives it); several "
        "such statements of one message are one fact.",
        "A reply that answers the other speaker's question states the fact with the question's "
        "context wherever the reply alone is a fragment: 'What's your favourite board game?' answered "
        "'Tidewater' gives 'Noor's favourite board game is Tidewater'; 'Have you ever sailed to the "
        "dunes?' answered 'Yes, twice last spring' gives 'Noor sailed to the dunes twice last "
        "spring'. The question's turn becomes a source of that fact, with or without its question "
        "mark ('whats your favourite board game' asks too); a greeting is no question. A short question "
        "that drops 'your' asks about the replier's own thing: 'how r lessons' answered 'can float now' gives "
        "\"Noor's lessons: can float now\"; one naming no thing of theirs is kept with the reply: 'Noor "
        "answered Ivo's question \"how much\": 32 each', both turns its sources. So does one that drops its "
        "auxiliary: 'when u start' answered 'monday' gives 'Noor answered Ivo's question \"when Noor starts\": "
        "monday'. A bare reply naming one thing of the other's long message is kept with the sentence it names: "
        "after Ivo describes three flats, 'harbour one' gives 'Noor replied to Ivo's \"The harbour flat was "
        "lovely\": harbour one'; 'ok, 14th' after 'Saturday the 14th then' gives 'Noor agreed to Ivo's \"Saturday "
        "the 14th then\": 14th', both turns its sources.",
        "A question that asks to borrow, offers or passes on news states what it tells: Bram's 'can i borrow ur "
        "drill' to Ilse gives 'Bram asked to borrow Ilse's drill', and Ilse's 'sure' after it 'Ilse lent Bram the "
        "drill' (both turns its sources); 'want my old tablet?' gives 'Bram offered Ilse Bram's old tablet'; "
        "'heard oswin n fenna got engaged??' gives 'Bram heard that Oswin and Fenna got engaged'. 'can u lend me "
        "200' gives 'Bram asked to borrow 200 from Ilse', 'want ur old sofa?' 'Bram asked Ilse for Ilse's old "
        "sofa', 'be my best person?' 'Bram asked Ilse to be Bram's best person'. Ilse's yes or no that settles "
        "the ask, just after it or after a clarifying exchange ('me??' -> 'u' -> 'YES'), is one fact with the ask's "
        "turn and its own as sources: 'Ilse agreed to be Bram's best person', 'Ilse accepted Bram's offer of "
        "Bram's old tablet', 'Ilse agreed to give Bram Ilse's old sofa', 'Ilse turned down Bram's offer of ...'. "
        "An invitation to a dated or placed plan is one too: Bram's 'fancy the lantern walk at Ossery on friday?' "
        "gives 'Bram invited Ilse to the lantern walk at Ossery on friday', and Ilse's 'yes!' (or a thumbs-up) "
        "'Ilse accepted Bram's invitation to the lantern walk at Ossery on friday'; a 'can't' turns it down. A yes "
        "or no to a yes/no question about a named person states it of them: Bram's 'is Wenna still at the harbour "
        "office?' and Ilse's 'yep' give 'Wenna is still at the harbour office', a 'nope' 'Wenna is not still ...' "
        "(never the presupposed fact as true after a denial), both turns its sources.",
        "A chat line admitted as the speaker's world without 'I' is one fact, its pieces joined and attributed: "
        "Rosa's 'Marigold. The grey one. Osric is gutted' gives 'Rosa: Marigold; the grey one; Osric is "
        "gutted'. When it adds a detail to one of the speaker's <existing_memories>, write that memory with "
        "the detail added (it is updated, not stored twice); when it goes on from the speaker's message just "
        "before, add it to that message's fact.",
        "Sentences of a long message about a thing of the speaker's own (one they called 'my' or that "
        "<existing_memories> stores as theirs) are one fact, stored as said and attributed: Odile's 'The "
        "hives came through the winter. They swarmed twice in May.' gives 'Odile: the hives came through the "
        "winter; they swarmed twice in May', not a fact per sentence.",
        "A short message continuing the speaker's own message states what it adds with what it "
        "continues: Noor's 'We went to the night market last week.' then 'Mostly street food.' "
        "gives 'Noor ate mostly street food at the night market last week', from both messages.",
        "A terse piece of the speaker's fact told across the listener's reactions is written with that fact, "
        "never alone: Corwen's 'the van failed inspection', Ilse's 'oh no', Corwen's 'brakes + rust' gives "
        "'Corwen: the van failed inspection; brakes + rust', from Corwen's two lines, not 'Corwen: brakes + "
        "rust'; after a short answer, with the question: 'Corwen answered Ilse's question \"what is Corwen up "
        "to saturday?\": market; jam stall'. When <existing_memories> holds that fact, write the memory with "
        "the piece added (it is "
        "updated, not stored twice).",
        "One answer is one fact: a reply giving several fragments to one question ('The lantern "
        "parade. The drummers at midnight.' to 'What were the best moments of the festival?') gives "
        "'Noor's best moments of the festival were the lantern parade and the drummers at midnight', "
        "not one fact per fragment; a long reply stays one fact while it goes on with one topic, and "
        "only a part on another topic is a fact of its own. A part of the reply that only reacts, "
        "thanks or turns to the asker ('Thanks for asking!', 'That sounds like a great plan') and takes "
        "up no word of the question is no fact of its own when another part says something: the "
        "question's turn is a source of that part's fact instead.",
        "A sentence that points back to the one before it ('It', 'That', 'They', 'Also', 'But') "
        "stays in the fact of that sentence: Noor's 'I restore old bikes. It takes most of my "
        "weekends.' gives 'Noor restores old bikes, which takes most of her weekends', one fact.",
        "An opinion without 'I' is the speaker's: 'the lake trail has the best views' gives 'Noor "
        "thinks the lake trail has the best views'.",
        "Put back the 'my' or 'I' chat drops and name the speaker: Noor's 'Cat knocked the vase off "
        "again' gives 'Noor's cat knocked the vase off again', 'the twins start swimming next month' "
        "'Noor's twins start swimming next month', 'Haven't slept well since the move' 'Noor has not "
        "slept well since the move', 'The recital on friday was lovely' 'Noor found the recital on "
        "friday lovely'.",
        "A line that opens the chat after a silence is written whole, its framing and detail kept: Noor's "
        "'bad news, ferry cancelled. storm' gives 'Noor: bad news, ferry cancelled; storm', not 'Noor: storm'. "
        "A line whose first verb has no subject is the speaker's: 'camping at the dunes instead, end of "
        "june' gives 'Noor is camping at the dunes instead, end of june'.",
        "Write out a person of the speaker's life that a pronoun stands for, with how the speaker is "
        "related to them: Noor's 'He keeps showing everyone the scarf' after her 'Dad loved the party' "
        "gives 'Noor's dad keeps showing everyone the scarf', sourced from both turns. A reply that drops "
        "its subject after a question about a person of the listener's speaks of that person: Ivo's "
        "'how's your sister?' answered 'doing great, moved to Lyon in May' gives 'Noor's sister is doing "
        "great and moved to Lyon in May', sourced from both turns; 'haven't seen her in weeks' stays Noor's. "
        "Someone the same message names by role is who its he/she means, not a person named lines before: "
        "after Noor's 'my aunt rang', her 'Our new intern started. She's from Quillmoor' gives 'Noor's new "
        "intern is from Quillmoor'. A reply that gives the role of someone the other asked after is a fact "
        "of its own, sourced from the question and the reply: Ivo's 'who's Ilse?' answered 'my old boss from the "
        "bakery' gives 'Ilse is Noor's old boss from the bakery', and a later 'she's stressed' gives 'Noor's old "
        "boss Ilse is stressed'. A name chat writes in lower case is still the name: after Noor's "
        "'ysolde texted me last night', her 'she got the flat' gives 'Ysolde got the flat'. "
        "A he/she after a short aside is written out, the aside kept: after Noor's 'my grandad is in "
        "hospital', her 'good idea, he loves those' gives 'Good idea, Noor's grandad loves those'; after her "
        "'My cousin Ottilie was flat hunting', 'Ottilie finally got the flat' gives 'Noor's cousin Ottilie "
        "finally got the flat'. "
        "A he/she at the end of a thread is written as the name that opened it, sourced from that turn: "
        "Noor's 'odile got the job!!', Ivo's 'congrats to her', Noor's 'she starts on march 3rd' give 'Odile "
        "starts on March 3rd'. "
        "Someone else's quoted words keep their own I and you: 'my boss said \"I "
        "need you at eight\"' gives 'Noor's boss said \"I need you at eight\"'.",
        "A question that presupposes a fact gives that fact as a statement about the person it is "
        "about, never the question copied: Noor asking Ivo 'did you finish the puzzle book I lent "
        "you?' gives 'Noor lent Ivo a puzzle book'; 'how did your driving test go?' gives 'Ivo had a "
        "driving test'; 'how's your new kitten settling in?' gives 'Ivo has a new kitten'; 'are you "
        "still at the flower shop?' gives 'Ivo has been working at the flower shop'; 'want to come to "
        "my recital on friday?' gives 'Noor has a recital on friday'; 'have you been to the night "
        "market on Pier Road? it's incredible' gives 'Noor has been to the night market on Pier Road: "
        "it's incredible'; 'did you end up buying the van?' gives 'Ivo considered buying the van'; 'did "
        "you get to see the lanterns after all?' gives 'Ivo planned to see the lanterns'; 'can you "
        "believe I finally passed my driving test?' gives 'Noor passed her driving test'. What the asker "
        "tells inside a question is written as their statement, its hedge kept: 'I told you I'm moving to "
        "Leeds, right?' gives 'Noor is moving to Leeds'; 'isn't it odd that I've never been on a train?' gives "
        "'Noor has never been on a train'; 'should I take my canoe to the lake on sunday?' gives 'Noor might "
        "take her canoe to the lake on sunday' (hedged); 'Soup again? I had it yesterday.' gives 'Noor had "
        "soup yesterday'; 'Guess where I'm moving in June? Tarrowick!' gives 'Noor is moving to Tarrowick in June'; "
        "'guess who got the library job' gives 'Noor got the library job' (hedged).",
        "Categories (one or more): persona = identity, relationships, traits; preference = likes, "
        "dislikes, constraints; event = what happened or will happen, with who and when; "
        "procedural = an action done in a device or app; user_rule = how the assistant should "
        "behave; error_learning = a correction of the assistant.",
        "Provenance: 'stated' when the fact is the utterance's point (or the speaker asks to "
        "remember it), 'hedged' when said with a hedge ('probably', 'I think', 'might'), "
        "'inferred' when only implied in passing.",
        "Grounding: assert no person, thing or relation the input lacks; without an antecedent use "
        "the most specific accurate generic form ('he is seven' with no named child gives 'the "
        "user's child is seven').",
        "Keep the source utterance's language (give its ISO 639-1 code) and its relative time words "
        "as said ('last week'); a later step dates them.",
        "source_turn_ids: the labels (bracketed numbers) of the utterances a fact comes from. "
        "Return no facts if nothing storable remains.",
    ],
)

SCOPE_SYSTEM = system_text(
    "You label the scope of facts for a privacy-aware memory.",
    "For each numbered fact in <facts>, choose one scope and whether background knowledge about "
    "its entity would help later.",
    [
        "USER_PII: identifying or sensitive data: contact details (phone, e-mail, street address, "
        "even spelled out or disguised), credentials (passwords, PINs, keys), ID, account and card "
        "numbers, precise birth dates, and special categories (health, sexual orientation, "
        "religion, finances, ethnicity, politics, biometrics, criminal records). Never leaves.",
        "INTERNAL: entities known only in the user's own world: family, friends, their named pets "
        "and possessions, their own organization, team, boss, projects and tools.",
        "EXTERNAL: named public entities (products, brands, companies, public places, books, "
        "films, events) that public knowledge describes.",
        "GENERIC: activities or concepts with no specific entity (hiking, baking bread), and facts "
        "that only place the user ('lives in Porto', 'works as a nurse').",
        "enrich = true only if facts about the entity itself would answer likely questions (a car "
        "model's fuel type, a city's country); false when the fact is complete.",
        "entity: the fact's name for it, copied exactly: EXTERNAL the public name alone ('Tesla "
        "Model 3', not 'her Tesla Model 3'); INTERNAL the person or group ('sister'). Never a "
        "user's or speaker's name; null for USER_PII and GENERIC.",
        "One label per fact with its index (from 1) and a short reason.",
    ],
)

ENRICH_SYSTEM = system_text(
    "You add background attributes to a stored fact.",
    "Read the fact in <fact> and the lines in <knowledge>, and return short attribute -> value "
    "pairs about the fact's entity.",
    [
        "Use only what the <knowledge> lines say; never add anything from your own general "
        "knowledge, even if you are sure of it.",
        "Keep attributes short and stable (e.g. type: electric vehicle, range: 300 miles).",
        "Skip knowledge about a different entity than the one in the fact.",
        "Return no attributes when nothing in <knowledge> applies; in the reason, name the "
        "knowledge line behind each attribute.",
    ],
)


def admission_prompt(exchange: Sequence[Message], history: Sequence[Message],
                     memories: Sequence[MemoryRecord] = ()) -> list[BaseMessage]:
    """Prompt for the utterance-level admission gate, chain-aware.

    It shows the current exchange with the reference history (the question a reply answers, the
    antecedents of references) and the stored memories it may continue.
    """
    sections = [
        ("reference_history", messages_block(history, timed=False)),
        ("existing_memories", memories_block(memories, dated=False)),
        ("current_exchange", messages_block(exchange, labelled=True, timed=False)),
    ]
    if silences := silences_block(exchange, history):
        sections.append(("silences", silences))
    return build(ADMIT_SYSTEM, sections)


def silences_block(exchange: Sequence[Message], history: Sequence[Message]) -> str:
    """The exchange's lines that open the chat after a silence ('[2] opens the chat after 3 days of silence').

    Formation prompts show no clock times, so the silence a line ends is said in words; empty when none does.
    """
    lines = []
    for i, message in enumerate(exchange):
        if silence := silence_before(message, [*history, *exchange[:i]]):
            lines.append(f"[{i + 1}] opens the chat after {spoken(silence)} of silence")
    return "\n".join(lines)


def split_prompt(admitted: Sequence[Message], history: Sequence[Message],
                 memories: Sequence[MemoryRecord]) -> list[BaseMessage]:
    """Prompt for multi-intent splitting into categorized, grounded facts."""
    return build(SPLIT_SYSTEM, [
        ("reference_history", messages_block(history, timed=False)),
        ("existing_memories", memories_block(memories, dated=False)),
        ("current_exchange", messages_block(admitted, labelled=True, timed=False)),
    ])


def scope_prompt(facts: Sequence[Fact]) -> list[BaseMessage]:
    """Prompt for the four-class scope taxonomy, facts numbered from 1."""
    return build(SCOPE_SYSTEM, [("facts", numbered([fact_line(f) for f in facts]))])


def enrich_prompt(fact: Fact, knowledge: Sequence[str]) -> list[BaseMessage]:
    """Prompt for enrichment drawn only from the supplied knowledge lines."""
    return build(ENRICH_SYSTEM, [
        ("fact", fact_line(fact)),
        ("knowledge", "\n".join(f"- {line}" for line in knowledge)),
    ])
