"""Reading a turn written in Korean: its words, put into the English words the sketch world knows.

Korean writes spaces between its words (eojeol), and each word is a stem with what follows
it: particles after a noun ("공원에서", in the park; "민수가", Minsu as the subject) and endings
after a verb ("달린다", "달려요", "달리고", "달리는", "달리기", "달렸다"). This module finds, at the
start of each word, a noun, an adverb or a verb stem of the sketch world and checks that what
follows is a particle or an ending of it; the word is then replaced by its English word:
"민수가 밤에 공원에서 달린다" -> "민수 night park run". The English reader reads the turn as it
reads any other, so that what is understood and what is not show as for an English turn.

A motion said not to be done ("안 달린다", "달리지 않는다", "못 달린다", "달리지 마", "산책을 안 한다")
is read "not run,", as the Chinese reader reads "不跑". The verbs that only carry another word
("하다" of "산책을 하다", "있다" of "달리고 있다") are read as nothing, but a negation on them
negates the motion before them.

Names of the cast (and of the project's places) are kept as written, without their particle:
"민수가" is 민수. A name that is also a place word is that place where it is written as one,
with a particle of place ("바다에서", in the sea), and the person elsewhere ("바다가 달린다").
Particles written onto a word of other letters are left out, so that "park에서" is the English
word park; one before 에서 that is no place of ours is said unknown ("Mordor에서").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from studio.core.instruction import Instruction, time_words
from studio.engines.sketch.translated import FIELDS, fields_in_english


@dataclass(frozen=True, slots=True)
class KoreanWord:
    """One Korean word and the English words it is read as.

    ``kind``: 'verb' (a motion or a camera move, conjugated: may be negated), 'action' (a noun
    that names a motion, "달리기", "산책": may be negated with 안 하다), 'noun' (a place, a time,
    a thing), 'adverb', 'do' (하다, 있다: carry another word, read as nothing) or 'other' (a word
    that starts like one of ours but is something else: kept as written)."""

    written: str
    english: str
    kind: str = "noun"


# Hangul syllable arithmetic ------------------------------------------------------------------

_FIRST, _LAST = 0xAC00, 0xD7A3
_N, _L, _B, _SS = 4, 8, 17, 20
"""Final consonants by their index in a syllable: ㄴ, ㄹ, ㅂ, ㅆ."""
_BRIGHT = (0, 8)
"""The vowels ㅏ and ㅗ: a stem whose last vowel is one takes 아, any other 어."""
_MERGED = {0: 0, 1: 1, 4: 4, 5: 5, 8: 9, 11: 10, 13: 14, 20: 6}
"""A stem's last vowel with 아/어 after it, merged into one syllable (보 + 아 = 봐, 리 + 어 = 려)."""


def is_syllable(char: str) -> bool:
    """Whether ``char`` is a Hangul syllable (가 to 힣)."""
    return _FIRST <= ord(char) <= _LAST


def has_hangul(text: str) -> bool:
    """Whether ``text`` holds a Hangul syllable or letter."""
    return any(is_syllable(ch) or "\u1100" <= ch <= "\u11ff" or "\u3130" <= ch <= "\u318f" for ch in text)


def _parts(char: str) -> tuple[int, int, int]:
    index = ord(char) - _FIRST
    return index // 588, (index // 28) % 21, index % 28


def _compose(lead: int, vowel: int, final: int) -> str:
    return chr(_FIRST + (lead * 21 + vowel) * 28 + final)


def _with_final(char: str, final: int) -> str:
    lead, vowel, _ = _parts(char)
    return _compose(lead, vowel, final)


def final_of(char: str) -> int:
    """The final consonant of a Hangul syllable (0: none, it ends in a vowel)."""
    return _parts(char)[2] if is_syllable(char) else 0


def infinitive(stem: str) -> str:
    """The 아/어 form of a regular verb stem: 달리 -> 달려, 보 -> 봐, 먹 -> 먹어, 하 -> 해, 쓰 -> 써,
    부르 -> 불러. (Irregular stems, 걷 -> 걸어, 눕 -> 누워, are written in the word lists.)"""
    head, last = stem[:-1], stem[-1]
    if last == "하":
        return head + "해"
    lead, vowel, final = _parts(last)
    if final:
        return stem + ("아" if vowel in _BRIGHT else "어")
    before = _parts(head[-1])[1] if head and is_syllable(head[-1]) else 4
    if vowel == 18:  # ㅡ drops: 쓰 -> 써, 아프 -> 아파; 르 doubles its ㄹ: 부르 -> 불러
        bright = before in _BRIGHT
        if last == "르" and head:
            return head[:-1] + _with_final(head[-1], _L) + ("라" if bright else "러")
        return head + _compose(lead, 0 if bright else 4, 0)
    merged = _MERGED.get(vowel)
    return stem + "어" if merged is None else head + _compose(lead, merged, 0)


# Word lists --------------------------------------------------------------------------------

MOTION_GROUPS: dict[str, str] = {
    "idle": "서다=stand, 기다리다=wait, 멈추다=stop, 휴식하다=relax, 일어나다=stand up,"
            "빈둥거리다=laze, 빈둥대다=laze, 뒹굴다=laze,"
            "일어서다=stand up, 가만히=stand still, 대기하다=wait",
    "walk": "걷다/걸어=walk, 걸어가다=walk, 산책하다=take walk, 거닐다=stroll, 가다=go, 들어가다=go, 이동하다=move,"
            "행진하다=march, 돌아다니다=wander, 헤매다=wander, 걸음=walk, 귀가하다=go home, 여행하다=travel,"
            "외출하다=go, 산보하다=stroll, 나들이=stroll",
    "run": "달리다=run, 뛰다=run, 뛰어가다=run, 달려가다=run, 질주하다=dash, 조깅하다=jog, 서두르다=hurry,"
           "경주하다=race, 뛰어다니다=run around, 달리기=run, 뜀박질하다=run, 달음박질하다=run",
    "sneak": "까치발=tiptoe, 숨어들다=sneak, 잠입하다=sneak, 기어가다=crawl, 포복하다=crawl",
    "jump": "뛰어오르다=leap, 점프하다=jump, 도약하다=leap, 뛰어넘다=leap, 깡충깡충=hop, 줄넘기=skip",
    "fly on broomstick": "날다=fly, 날아가다=fly, 비행하다=fly, 날아다니다=fly around, 빗자루=broom,"
                         "날아오르다=soar, 뜨다=hover, 이륙하다=take off, 활공하다=glide",
    "sweep": "쓸다=sweep, 빗자루질=sweep, 청소하다=clean, 비질하다=sweep, 정리하다=tidy, 걸레질하다=mop, 닦다=clean",
    "sit": "앉다=sit, 꿇다=kneel, 착석하다=take seat",
    "lie down": "눕다/누워=lie down, 드러눕다/드러누워=lie down, 엎드리다=lie down, 쉬다=rest",
    "sleep": "자다=sleep, 잠자다=sleep, 잠=sleep, 낮잠=take nap, 졸다=doze, 잠들다=fall asleep, 주무시다=sleep,"
             "취침하다=go bed",
    "turn head": "돌아보다=look back, 뒤돌아보다=look back, 흘끗=glance, 힐끗=glance,"
                 "곁눈질하다=glance",
    "look around": "보다=look, 둘러보다=look around, 살펴보다=look around, 두리번거리다=look around, 바라보다=gaze,"
                   "쳐다보다=stare, 응시하다=stare, 찾다=search, 관찰하다=observe, 엿보다=peek, 훔쳐보다=peek,"
                   "올려다보다=look up, 내려다보다=look down, 탐험하다=explore, 구경하다=sightsee, 관광하다=sightsee",
    "wave": "흔들다=wave, 인사하다=greet, 손짓하다=beckon, 작별하다=farewell, 배웅하다=farewell",
    "talk": "말하다=say, 이야기하다=talk, 얘기하다=talk, 대화하다=converse, 수다=chat, 속삭이다=whisper, 부르다=call,"
            "묻다/물어=ask, 질문하다=ask, 의논하다=discuss, 토론하다=discuss, 통화하다=call, 전화하다=call",
    "meet people": "만나다=meet, 방문하다=visit, 찾아가다=visit, 어울리다=hang out",
    "hug": "안다=hug, 껴안다=hug, 포옹하다=embrace, 손잡다=hold hand",
    "laugh": "웃다=laugh, 미소=smile, 킥킥거리다=giggle, 낄낄거리다=giggle, 웃음=laugh",
    "cry": "울다=cry, 흐느끼다=sob, 슬퍼하다=be sad, 울음=cry",
    "dance": "춤추다=dance, 춤=dance, 발레=ballet",
    "spin": "돌다=spin, 빙글빙글=spin, 회전하다=rotate, 맴돌다=twirl",
    # 노래 sings, with 부르다 after it too (see CARRIED_BY)
    "sing": "노래=sing, 노래하다=sing, 흥얼거리다=hum, 콧노래=hum, 노래방=karaoke",
    "play": "놀다=play, 공놀이하다=play ball, 게임하다=game, 놀이=have fun, 축구=kick ball, 숨바꼭질=play game",
    "eat": "먹다=eat, 식사하다=dine, 맛보다=taste, 씹다=chew, 깨물다=bite",
    "drink": "마시다=drink, 홀짝이다=sip",
    "cook": "요리하다=cook, 굽다/구워=bake, 볶다=fry, 튀기다=fry, 젓다/저어=stir",
    "read": "읽다=read, 독서하다=read, 공부하다=study",
    "write": "쓰다=write, 그리다=draw, 스케치하다=sketch, 필기하다=take note, 낙서하다=doodle, 칠하다=paint,"
             "색칠하다=paint, 그림=draw",
    "swim": "수영하다=swim, 헤엄치다=swim, 잠수하다=dive, 물장구치다=splash, 떠다니다=float",
    "fall": "넘어지다=fall, 떨어지다=fall, 미끄러지다=slip, 쓰러지다=collapse, 자빠지다=fall, 헛디디다=stumble",
    "climb": "오르다=climb, 올라가다=climb up, 기어오르다=clamber, 등산하다=climb, 등반하다=climb",
    "stretch": "스트레칭하다=stretch, 기지개=stretch, 하품하다=yawn, 운동하다=exercise, 체조하다=exercise,"
               "준비운동=warm up",
    "kick": "차다=kick, 걷어차다=kick, 발차기=kick, 밟다=stomp",
    "punch": "때리다=hit, 주먹질하다=punch, 펀치=punch, 싸우다=fight, 권투하다=box, 태권도=karate, 가라테=karate,"
             "훈련하다=train",
    "bow": "절하다=bow, 숙이다=bow, 감사하다=thank",
    "nod": "끄덕이다=nod",
    "throw": "던지다=throw, 투구하다=pitch",
    "catch": "잡다=catch, 받다=receive, 붙잡다=catch",
    "shiver": "떨다=shiver, 덜덜=shiver, 추워하다=be cold, 춥다/추워=cold, 얼다=freeze",
    "clap": "박수치다=clap hand, 박수=applaud, 손뼉치다=clap hand, 축하하다=celebrate, 응원하다=cheer, 환호하다=cheer",
    "think": "생각하다=think, 상상하다=imagine, 꿈꾸다=dream, 고민하다=ponder, 기억하다=remember, 떠올리다=remember,"
             "공상하다=daydream",
    "pray": "기도하다=pray, 빌다=wish, 소원=wish, 명상하다=meditate, 합장하다=clasp hand",
    "shout": "소리치다=shout, 외치다=shout, 소리=shout, 고함치다=yell, 비명=scream, 소리지르다=shout, 지르다=yell",
    "point": "가리키다=point, 손가락질하다=point",
    "carry": "나르다=carry, 옮기다=carry, 운반하다=carry, 배달하다=deliver, 들어올리다=lift",
    "sulk": "삐지다=sulk, 토라지다=sulk, 화내다=get angry, 화나다=get angry, 뾰로통하다=pout, 투덜거리다=grumble",
}
"""Korean verbs (in their dictionary form, "-다"; "걷다/걸어": a stem and its irregular 아/어 form)
and nouns for each motion of :data:`~studio.engines.sketch.vocabulary.MOTIONS`, each read as an
English word of that motion (여행, travel, walks; 놀이, having fun, plays)."""

THING_GROUPS: dict[str, str] = {
    "sit": "벤치=bench, 의자=chair, 소파=sofa, 바닥=floor, 땅=ground, 걸상=stool",
    "sit on railing": "난간=railing, 울타리=fence, 담=wall, 담장=wall, 벽=wall",
    "talk": "전화=call, 휴대폰=phone, 핸드폰=phone, 스마트폰=phone",
    "meet people": "친구=friend",
    "cry": "눈물=tear",
    "play": "공=ball",
    "eat": "간식=snack, 점심=lunch, 도시락=lunch, 빵=bread, 음식=food",
    "drink": "차=tea, 홍차=tea, 커피=coffee, 우유=milk, 주스=juice, 코코아=cocoa",
    "read": "책=book, 소설=book, 편지=letter, 지도=map",
    "write": "숙제=homework, 메모=note",
    "climb": "사다리=ladder",
    "stretch": "하품=yawn, 체조=exercise",
    "punch": "무술=karate",
    "shiver": "추위=cold",
    "think": "꿈=dream",
    "carry": "소포=parcel, 택배=parcel, 상자=package",
}
"""Korean names of the things a motion's phrases name (a seat, a book, tea), by that motion."""

INSTRUMENT_VERBS = "연주하다=play"
INSTRUMENT_NOUNS = (
    "기타=guitar, 피아노=piano, 바이올린=violin, 드럼=drum, 첼로=cello, 플루트=flute, 우쿨렐레=ukulele, 하프=harp,"
    "하모니카=harmonica, 트럼펫=trumpet, 북=drum, 장구=drum, 가야금=instrument, 악기=instrument"
)
"""Instruments and the verb they are played with (기타를 치다, 피아노를 연주하다; 치다 and 켜다, hit
and light, are read with nothing): no motion of the world, shown as singing, said, as the English
"plays the guitar" is (:data:`~studio.engines.sketch.vocabulary.INSTRUMENTS`). Not offered as
words of a motion."""

INSTRUMENT_PLAYED = "치다=play, 켜다=play, 불다=play"
"""Verbs that play an instrument named just before them (기타를 치다, 바이올린을 켜다, 플루트를 불다):
read as "play" there only, so that one said not to be done ("기타를 치지 않는다", "안 친다") is a
motion not done, as "does not play the guitar" is; alone they hit, light or blow."""

STAND_IN_WORDS = "스케이트=skate, 저글링=juggle, 스키=ski, 서핑=surf, 요가=yoga"
"""Activities the world has no motion for, read as the English words for them, which the reader
shows as a motion near them, said (:data:`~studio.engines.sketch.vocabulary.UNKNOWN_MOTION_HINTS`).
Not offered as words of a motion."""

PART_GROUPS: dict[str, str] = {
    "fly on broomstick": "타다=ride",
    "hold broom": "들다=hold, 쥐다=hold",
    "turn head": "돌리다=turn, 고개=head",
}
"""Words that say a motion only with another ("빗자루를 타다" rides a broom, "빗자루를 들다" holds
it, "고개를 돌리다" turns the head): alone, they name none."""

PLACE_GROUPS: dict[str, str] = {
    "sky": "하늘=sky, 밤하늘=night sky, 공중=midair, 구름=cloud, 상공=high sky",
    "countryside": "시골=countryside, 농촌=countryside, 들판=field, 밭=field, 농장=farm, 농경지=farmland, 언덕=hill,"
                   "밀밭=wheat field",
    "town": "마을=village, 동네=town, 도시=city, 시내=downtown, 시장=market, 광장=plaza, 읍내=town, 도심=downtown",
    "grass": "풀밭=meadow, 초원=meadow, 잔디=lawn, 잔디밭=lawn, 풀=grass",
    "street": "거리=street, 길=road, 도로=road, 골목=alley, 골목길=alley, 인도=sidewalk, 횡단보도=crosswalk,"
              "교차로=crossing, 사거리=crossing, 대로=avenue",
    "bedroom": "방=room, 침실=bedroom, 집=home, 다락방=attic, 침대=bed, 실내=indoors, 거실=living room",
    "forest": "숲=forest, 숲속=forest, 나무=tree, 수풀=wood, 정글=jungle",
    "beach": "해변=beach, 바닷가=seaside, 해안=coast, 모래사장=beach, 해수욕장=beach, 모래=sand",
    # a harbour is drawn as the sea's edge
    "sea": "바다=sea, 대양=ocean, 파도=ocean, 항구=harbour, 부두=pier, 배=boat, 물=water",
    "bakery": "빵집=bakery, 제과점=bakery, 베이커리=bakery, 가게=shop, 상점=shop, 매점=store, 편의점=store",
    "station": "역=station, 기차역=station, 지하철역=subway station, 정류장=bus stop, 버스정류장=bus stop,"
               "승강장=platform, 플랫폼=platform, 기차=railway, 철도=railway, 지하철=subway",
    "park": "공원=park, 놀이터=playground, 그네=swing, 분수=fountain",
    "river": "강=river, 강가=riverside, 강변=riverside, 강둑=riverbank, 시냇물=stream, 개울=stream, 다리=bridge,"
             "호수=lake, 연못=pond, 운하=canal",
    "mountain": "산=mountain, 산속=mountain, 산꼭대기=summit, 정상=summit, 절벽=cliff, 봉우리=peak,"
                "산비탈=mountainside",
    "school": "학교=school, 캠퍼스=campus, 운동장=schoolyard, 교정=campus, 고등학교=school, 중학교=school,"
              "초등학교=school, 대학교=campus, 대학=campus, 교문=school gate",
    "classroom": "교실=classroom, 강의실=classroom, 수업=lesson, 칠판=blackboard",
    "cafe": "카페=cafe, 커피숍=coffee shop, 식당=restaurant, 레스토랑=restaurant, 음식점=restaurant, 찻집=tea house,"
            "다방=tea room",
    "kitchen": "부엌=kitchen, 주방=kitchen, 스토브=stove, 가스레인지=stove, 찬장=pantry",
    "library": "도서관=library, 서점=bookstore, 책방=bookshop, 책장=bookshelf, 책꽂이=bookshelf, 서재=study room",
    "rooftop": "옥상=rooftop, 지붕=roof, 발코니=balcony, 베란다=balcony, 테라스=terrace",
    "shrine": "신사=shrine, 절=temple, 사찰=temple, 사원=temple, 도리이=torii, 탑=pagoda, 성지=sanctuary",
    "garden": "정원=garden, 뜰=yard, 마당=yard, 뒷마당=backyard, 꽃밭=flower garden, 화원=flower garden, 꽃=flower,"
              "온실=greenhouse",
}
"""A Korean word for each place of :data:`~studio.engines.sketch.vocabulary.LOCATIONS`, by the place it is drawn as."""

UNDRAWN_PLACES = (
    "공항=airport, 병원=hospital, 성=castle, 섬=island, 사막=desert, 화산=volcano, 동굴=cave, 눈밭=snow, 설원=snow,"
    "우주=space, 교회=church, 성당=church, 박물관=museum, 미술관=museum, 동물원=zoo, 회사=office, 사무실=office,"
    "슈퍼마켓=supermarket, 마트=supermarket, 경기장=stadium, 욕실=bathroom, 화장실=bathroom,"
    "술집=bar, 궁전=palace, 궁궐=palace, 쇼핑몰=mall, 백화점=mall"
)
"""Places not drawn, read as their English word so that the warning names their stand-in."""

TIME_GROUPS: dict[str, str] = {
    time: ", ".join(f"{word.written}={word.english}" for word in time_words("ko") if word.shown == time)
    for time in dict.fromkeys(word.shown for word in time_words("ko"))
}
"""A Korean word for each time of day (day, sunset, night), by the light it is drawn in: the
core's list (:func:`~studio.core.instruction.time_words`), which also says how each is drawn
and which the menus offer."""

CAMERA_GROUPS: dict[str, str] = {
    "static": "고정=static, 정지=static, 삼각대=tripod, 원경=wide, 와이드=wide, 와이드샷=wide shot, 전경=wide shot,"
              "롱샷=wide shot",
    "pan": "팬=pan, 패닝=panning, 틸트=tilt, 수평이동=truck, 트럭=truck, 슬라이드=slide",
    "follow": "따라가다=follow, 팔로우=follow, 추적=track, 트래킹=tracking, 달리=dolly, 돌리=dolly, 쫓다=chase,"
              "추격=chase",
    "zoom": "줌=zoom, 줌인=zoom in, 줌아웃=zoom out, 확대=zoom in, 축소=zoom out, 클로즈업=close up, 근접=close,"
            "푸시인=push in",
    "orbit": "회전=rotate, 궤도=orbit, 오빗=orbit, 선회=orbit, 아크=arc, 빙빙=circle",
}
"""A Korean word for each camera move of :data:`~studio.engines.sketch.vocabulary.CAMERA_PHRASES`."""

ADVERB_GROUPS: dict[int, str] = {
    1: "천천히=slowly, 느리게=slowly, 느릿느릿=slowly, 살살=gently, 살며시=gently, 부드럽게=softly, 나른하게=lazily,"
       "게으르게=lazily, 졸린듯이=sleepily, 피곤하게=tiredly",
    2: "느긋하게=leisurely, 여유롭게=leisurely, 차분하게=calmly, 침착하게=calmly, 조심스럽게=carefully,"
       "조심히=carefully, 조용히=quietly, 살금살금=quietly, 수줍게=shyly, 부끄럽게=shyly, 슬프게=sadly,"
       "초조하게=nervously, 불안하게=nervously, 가볍게=lightly, 가뿐하게=lightly, 편하게=casually,"
       "궁금한듯이=curiously",
    3: "평소처럼=normally, 보통=normally, 매끄럽게=smoothly, 꾸준히=steadily, 즐겁게=happily, 행복하게=happily,"
       "기쁘게=happily, 자랑스럽게=proudly, 당당하게=proudly, 명랑하게=cheerfully, 쾌활하게=cheerfully,"
       "신나게=joyfully, 우아하게=gracefully, 서투르게=clumsily, 어설프게=clumsily, 장난스럽게=playfully",
    4: "빨리=quickly, 빠르게=quickly, 재빨리=swiftly, 신속하게=rapidly, 급히=hastily, 서둘러=hurriedly,"
       "허둥지둥=hurriedly, 들떠서=excitedly, 흥분해서=excitedly, 열심히=eagerly, 씩씩하게=boldly, 대담하게=boldly,"
       "용감하게=boldly, 화난듯이=angrily",
    5: "미친듯이=madly, 필사적으로=frantically, 정신없이=frantically, 격렬하게=fiercely, 맹렬하게=fiercely,"
       "거칠게=wildly, 힘차게=vigorously, 힘껏=powerfully, 전력으로=powerfully, 활기차게=energetically",
}
"""Korean adverbs for each level of :data:`~studio.engines.sketch.vocabulary.ADVERB_LEVELS`."""

OTHER_WORDS = (
    "나=I, 너=you, 저=I, 우리=we, 그=he, 그녀=she, 자기=self, 돈=money, 가지=branch, 보고서=report,"
    "자리=seat, 가족=family, 서로=each other, 말=horse, 안경=glasses, 자동차=car, 기분=mood, 가방=bag,"
    "설거지=washing up"
)
"""Words that start like a word of ours but are another thing ("나는" is "I", not 날다, fly;
"차고" a garage, not 차다, kick; 설거지, the washing up, no 서다, stand): read as written (the
English is a note for the reader)."""

DO_WORDS = "하다=do, 있다=be, 추다=dance, 켜다=stretch"
"""Verbs that carry another word ("산책을 하다", "달리고 있다", "춤을 추다", "기지개를 켜다"): read as
nothing, but a negation on them negates that word ("춤을 안 춘다")."""
CARRIED_BY: dict[str, str] = {"노래": "부르", "콧노래": "부르", "수다": "떨", "까치발": "걷", "깡충깡충": "뛰",
                              "흘끗": "보", "힐끗": "보"}
"""Nouns (and adverbs) of a motion and the verb that carries them where it means something else
alone: "노래를 부르다" sings (부르다 alone calls), "수다를 떨다" chats (떨다 alone shivers),
"까치발로 걷다" tiptoes and "흘끗 보다" glances (not a walk or a look besides): the caption says
them so (:func:`~studio.core.sentence.korean_motion`)."""


NOUNS_IN_DA = frozenset({"수다"})
"""Nouns of a motion that end in 다 like a verb's dictionary form: 수다 (chatter) is no verb 수다
(whose stem would be 수), so that "수다를 떨다" is read as the noun its 떨다 carries."""


def _pairs(pairs: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for pair in pairs.split(","):
        if pair.strip():
            written, english = (part.strip() for part in pair.split("="))
            out.append((written, english))
    return out


def _words(pairs: str, kind: str = "noun") -> tuple[KoreanWord, ...]:
    """Words written as 'korean=english' pairs separated by commas. A verb ("달리다"; kind 'verb'
    or 'do') is listed by its stem ("달리"), with its irregular 아/어 form after a slash kept
    (:data:`_IRREGULAR`); a word not ending in 다, or one of :data:`NOUNS_IN_DA`, is a noun (kind
    'action' for a motion's verbs).
    A verb made of a noun and 하다 ("산책하다") also gives its noun ("산책"), of two syllables or more."""
    out: list[KoreanWord] = []
    for written, english in _pairs(pairs):
        dictionary, _, irregular = written.partition("/")
        if kind in ("verb", "do") and dictionary.endswith("다") and " " not in dictionary \
                and dictionary not in NOUNS_IN_DA:
            stem = dictionary[:-1]
            out.append(KoreanWord(stem, english, kind))
            if irregular:
                _IRREGULAR[stem] = irregular
            if kind == "verb" and stem.endswith("하") and len(stem) > 2:
                out.append(KoreanWord(stem[:-1], english, "action"))
        else:
            out.append(KoreanWord(dictionary, english, "action" if kind == "verb" else kind))
    return tuple(out)


_IRREGULAR: dict[str, str] = {}
"""Verb stems whose 아/어 form is not the regular one: 걷 -> 걸어, 눕 -> 누워."""


def _groups(groups: Iterable[str], kind: str) -> tuple[KoreanWord, ...]:
    return tuple(word for pairs in groups for word in _words(pairs, kind))


PART_WORDS = _groups(PART_GROUPS.values(), "verb")
"""The words of :data:`PART_GROUPS`: read with the word they go with, never offered alone."""
MOTION_WORDS = (*_groups(MOTION_GROUPS.values(), "verb"), *PART_WORDS)
THING_WORDS = _groups(THING_GROUPS.values(), "noun")
INSTRUMENT_WORDS = (*_words(INSTRUMENT_VERBS, "verb"), *_words(INSTRUMENT_NOUNS, "noun"))
PLACE_WORDS = (*_groups(PLACE_GROUPS.values(), "noun"), *_words(UNDRAWN_PLACES))
TIME_WORDS = _groups(TIME_GROUPS.values(), "noun")
CAMERA_WORDS = _groups(CAMERA_GROUPS.values(), "verb")
ADVERB_WORDS = _groups(ADVERB_GROUPS.values(), "adverb")
_OTHER = _words(OTHER_WORDS, "other")
_DO = _words(DO_WORDS, "do")


# What may follow a word ----------------------------------------------------------------------

PARTICLES = tuple(sorted((
    "이", "가", "은", "는", "을", "를", "의", "에", "에서", "에게", "한테", "께", "께서", "로", "으로", "와",
    "과", "도", "만", "까지", "부터", "랑", "이랑", "하고", "처럼", "보다", "마다", "들", "이다", "이야",
    "야", "이에요", "예요", "이었다", "였다", "요", "속", "안", "밖", "위", "아래", "쪽", "근처", "엔", "에선",
    "서", "인", "이고", "고",
), key=len, reverse=True))
"""Particles (and the few place nouns written onto a noun, "숲속", "집안") that may follow a noun:
"공원에서" is the park, "밤에는" the night."""
_AT_PLACE = ("에서", "에", "로", "으로", "에선", "엔", "까지", "속", "안", "밖", "위", "아래", "근처", "쪽")
"""Particles that make a cast name written before them the place of that name ("바다에서")."""
_AFTER_STEM = ("고", "기", "지", "다", "며", "면", "자", "게", "러", "려", "던", "겠", "네", "세", "시", "니", "도록",
               "잖", "더", "냐", "는", "습", "으", "을", "은")
"""Endings after a verb's stem: 달리고, 달리기, 달리지, 달리다, 먹는다, 먹습니다, 먹으면, 먹은."""
_AFTER_VOWEL_STEM_NOT = ("습", "으", "을", "은")
"""Of those, the ones only a stem ending in a consonant takes (먹습니다, 먹은; "가은" is a name, not 가다)."""
_AFTER_FORM: dict[str, tuple[str, ...]] = {
    "n": ("", "다", "데", "지", "듯", "후", "뒤"),                      # 달린다, 달린 후
    "l": ("", "까", "게", "래", "거", "수", "때", "것", "걸", "께", "지", "테"),  # 달릴 때, 달릴까
    "b": ("니",),                                                   # 달립니다
    "drop": ("는", "니", "세", "시", "십", "오"),                     # 노는, 노세요 (놀다)
    "drop n": ("", "다", "데", "지", "듯", "후", "뒤"),                 # 논다 (놀다)
    "drop b": ("니",),                                              # 놉니다 (놀다)
    "a": ("", "요", "서", "도", "라", "야", "주", "보", "봐", "버", "있", "놓", "져", "줘", "본", "봤"),  # 달려요
    "ss": ("다", "어", "었", "고", "는", "던", "지", "습", "을", "으", "네", "죠", "니"),  # 달렸다
}
"""What may follow each other form of a verb (see :func:`_forms`); '' is the form alone."""
_NEGATORS = ("안", "못")
"""Words before a verb that say it is not done: 안 달린다, 못 달린다."""
_NEGATING_AFTER_JI = ("않", "안", "말", "마", "못")
"""What after a verb's 지 says it is not done: 달리지 않는다, 달리지 마, 달리지 못한다."""


def _particles(rest: str, depth: int = 0) -> bool:
    """Whether ``rest`` is nothing, or particles one after another (up to three)."""
    if not rest:
        return True
    return depth < 3 and any(rest.startswith(p) and _particles(rest[len(p):], depth + 1) for p in PARTICLES)


def only_particles(rest: str) -> bool:
    """Whether what follows a noun, ``rest``, is nothing or particles only ("가", "에서는")."""
    return _particles(rest)


def _forms(word: KoreanWord) -> list[tuple[str, str]]:
    """The forms a verb's words start with, each with its kind: its stem ('stem': 달리); where
    the stem ends in a vowel, with ㄴ, ㄹ or ㅂ written into its last syllable ('n' 달린, 'l' 달릴,
    'b' 달립); where it ends in ㄹ, without it ('drop' 노 of 놀다, 'drop n' 논, 'drop b' 놉); its
    아/어 form ('a' 달려) and that form past ('ss' 달렸)."""
    stem = word.written
    forms = [("stem", stem)]
    last = stem[-1]
    final = final_of(last)
    if final == 0:
        forms += [(kind, stem[:-1] + _with_final(last, f)) for kind, f in (("n", _N), ("l", _L), ("b", _B))]
    elif final == _L:
        dropped = stem[:-1] + _with_final(last, 0)
        forms += [("drop", dropped), ("drop n", dropped[:-1] + _with_final(last, _N)),
                  ("drop b", dropped[:-1] + _with_final(last, _B))]
    a_form = _IRREGULAR.get(stem) or infinitive(stem)
    forms.append(("a", a_form))
    if final_of(a_form[-1]) == 0:
        forms.append(("ss", a_form[:-1] + _with_final(a_form[-1], _SS)))
    return forms


def _follows(word: KoreanWord, form: str, rest: str) -> bool:
    """Whether ``rest`` may follow ``word`` written in its ``form``."""
    if word.kind == "adverb":
        return rest in ("", "도", "는", "만")
    if word.kind not in ("verb", "do"):
        return _particles(rest) or (word.kind == "action" and _is_do(rest))
    if form == "stem":
        vowel_stem = final_of(word.written[-1]) == 0
        return any(rest.startswith(e) for e in _AFTER_STEM
                   if not (vowel_stem and e in _AFTER_VOWEL_STEM_NOT))
    return any(rest.startswith(e) if e else not rest for e in _AFTER_FORM[form])


def _is_do(rest: str) -> bool:
    """Whether ``rest`` is a form of 하다 written onto a noun ("달리기하다", "산책했다")."""
    return bool(rest) and any(_follows(word, form, rest[len(written):])
                              for word in _DO if word.written == "하"
                              for form, written in _forms(word) if rest.startswith(written))


_Index = dict[str, tuple[tuple[KoreanWord, str], ...]]


def _table(*groups: Iterable[KoreanWord]) -> _Index:
    """Every form of the words of ``groups``, by how it is written. Words written the same are
    tried in the order of the groups (a word of :data:`OTHER_WORDS` before ours, an adverb before
    the verb it comes from: 서둘러 is "hurriedly"), and a form without a stem's ㄹ after every
    other (쓴다 writes, 쓰다, before it sweeps, 쓸다); the first that what follows fits is read."""
    found: dict[str, list[tuple[KoreanWord, str]]] = {}
    later: list[tuple[str, KoreanWord, str]] = []
    for group in (_OTHER, _DO, *groups):
        for word in group:
            for form, written in (_forms(word) if word.kind in ("verb", "do") else [("noun", word.written)]):
                if form.startswith("drop"):
                    later.append((written, word, form))
                else:
                    found.setdefault(written, []).append((word, form))
    for written, word, form in later:
        found.setdefault(written, []).append((word, form))
    return {written: tuple(words) for written, words in found.items()}


TEXT_TABLE = _table(ADVERB_WORDS, MOTION_WORDS, THING_WORDS, INSTRUMENT_WORDS, _words(STAND_IN_WORDS), TIME_WORDS,
                    PLACE_WORDS,
                    CAMERA_WORDS)
"""What a Motion field or free text is read with: everything."""
PLACE_TABLE = _table(TIME_WORDS, PLACE_WORDS, MOTION_WORDS, THING_WORDS)
"""What a Background field is read with: places and times first."""
TIME_TABLE = _table(TIME_WORDS)
CAMERA_TABLE = _table(CAMERA_WORDS)
ADVERB_TABLE = _table(ADVERB_WORDS)


# Reading -------------------------------------------------------------------------------------

@dataclass(slots=True)
class _Piece:
    """One part of a text as read: a Korean word and what it was read as, or text kept as written."""

    written: str
    word: KoreanWord | None = None
    rest: str = ""
    name: str = ""
    negated: bool = False
    dropped: bool = False
    said: str = ""
    glued: bool = False
    """Particles written onto a word of other letters ("에서" of "park에서"): left out."""


def word_at(eojeol: str, table: Mapping[str, tuple[tuple[KoreanWord, str], ...]]) -> tuple[KoreanWord, str] | None:
    """The word of ``table`` ``eojeol`` (a word of Hangul, as written between spaces) is, and what
    follows it; the longest that fits first. None when it is none of ours."""
    for end in range(len(eojeol), 0, -1):
        for word, form in table.get(eojeol[:end], ()):
            if _follows(word, form, eojeol[end:]):
                return word, eojeol[end:]
    return None


_SPLIT = re.compile(r"[\uac00-\ud7a3]+|[^\uac00-\ud7a3]+")


def _name_at(text: str, start: int, names: tuple[str, ...], word: KoreanWord | None) -> tuple[str, int]:
    """The cast name written at ``start`` of ``text`` with only particles after it, and where
    those end; ('', start) where none is, or where the name is the place ``word`` written as
    one ("바다에서": in the sea)."""
    for name in names:
        if not text.startswith(name, start):
            continue
        end = start + len(name)
        run_end = end
        while run_end < len(text) and is_syllable(text[run_end]):
            run_end += 1
        rest = text[end:run_end]
        if not _particles(rest):
            continue
        if word is not None and word.written == name and word.kind == "noun" and rest.startswith(_AT_PLACE):
            return "", start
        return name, run_end
    return "", start


def _pieces(text: str, table: Mapping[str, tuple[tuple[KoreanWord, str], ...]],
            names: tuple[str, ...]) -> list[_Piece]:
    pieces: list[_Piece] = []
    i = 0
    while i < len(text):
        chunk = _SPLIT.match(text, i)
        assert chunk is not None
        run = chunk.group()
        if not is_syllable(run[0]):
            pieces.append(_Piece(run))
            i = chunk.end()
            continue
        glued = i > 0 and text[i - 1].isalnum()  # "Qiqi가": a particle after a word of other letters
        if glued and _particles(run):  # "park에서": the park, read as the English word it is
            pieces.append(_Piece(run, dropped=True, glued=True))
            i = chunk.end()
            continue
        found = None if glued else word_at(run, table)
        name, end = ("", i) if glued else _name_at(text, i, names, found[0] if found else None)
        if name and (found is None or len(found[0].written) <= len(name)):
            pieces.append(_Piece(text[i:end], name=name))
            i = end
            continue
        word, rest = found if found else (None, "")
        pieces.append(_Piece(run, word, rest))
        i = chunk.end()
    return pieces


def _korean_after(pieces: list[_Piece], index: int) -> int | None:
    """Where the next Korean piece after ``pieces[index]`` is, past white space only."""
    for after in range(index + 1, len(pieces)):
        written = pieces[after].written
        if written.strip():
            return after if is_syllable(written[0]) else None
    return None


def _said(pieces: list[_Piece], target: int, start: int, end: int) -> None:
    """Mark ``pieces[target]`` not done, said so by ``pieces[start:end + 1]`` as written."""
    pieces[target].negated = True
    pieces[target].said = " ".join("".join(p.written for p in pieces[start:end + 1]).split())


def _a_motion(piece: _Piece) -> bool:
    """Whether ``piece`` is a motion's verb or noun, read."""
    return piece.word is not None and piece.word.kind in ("verb", "action") and not piece.dropped


def _negate(pieces: list[_Piece]) -> None:
    """Mark the motions said not to be done (see :data:`_NEGATORS`, :data:`_NEGATING_AFTER_JI`),
    leaving out the words that say so; a negated 하다 or 있다 negates the motion before it. Each
    keeps how it was said ("안 달린다"), for the warning that quotes it."""
    _carry(pieces)
    for index, piece in enumerate(pieces):
        word = piece.word
        if piece.dropped:
            continue
        if piece.written in _NEGATORS and word is None and not piece.name:
            after = _korean_after(pieces, index)
            following = pieces[after].word if after is not None else None
            if after is not None and following is not None and (
                    following.kind in ("verb", "do") or (following.kind == "action" and not _inside(pieces, index))):
                piece.dropped = True
                _said(pieces, after, index, after)
            continue
        if word is None or word.kind not in ("verb", "do", "action"):
            continue
        end = index
        if piece.rest.startswith("지"):
            after = _korean_after(pieces, index)
            if piece.rest[1:].startswith(_NEGATING_AFTER_JI):
                _said(pieces, index, index, index)
            elif after is not None and pieces[after].written.startswith(_NEGATING_AFTER_JI):
                pieces[after].dropped, end = True, after
                _said(pieces, index, index, after)
        if word.kind == "do" and piece.negated:
            before = next((i for i in range(index - 1, -1, -1) if _a_motion(pieces[i])), None)
            if before is not None:
                _said(pieces, before, before, end)


_INSTRUMENTS = frozenset(word.written for word in INSTRUMENT_WORDS if word.kind == "noun")
_PLAYED_TABLE: _Index = {}
for _word in _words(INSTRUMENT_PLAYED, "verb"):
    for _form, _written in _forms(_word):
        _PLAYED_TABLE.setdefault(_written, (*_PLAYED_TABLE.get(_written, ()), (_word, _form)))


def _instruments_played(pieces: list[_Piece]) -> None:
    """Read the verb that plays an instrument named just before it (:data:`INSTRUMENT_PLAYED`), a
    negation between them or not ("기타를 안 친다"), as "play"."""
    instrument = False
    for piece in pieces:
        if not piece.written.strip() or (piece.written in _NEGATORS and piece.word is None and instrument):
            continue
        if instrument and not piece.name:
            played = word_at(piece.written, _PLAYED_TABLE)
            if played is not None:
                piece.word, piece.rest = played
        instrument = piece.word is not None and piece.word.written in _INSTRUMENTS and not piece.dropped


_OBJECT_PARTICLES = ("을", "를")


def _objects_not_done(pieces: list[_Piece]) -> dict[int, int]:
    """Each motion verb said not to be done -> the thing it is done to, written just before it
    with 을/를 ("책을 읽지 않는다", "기타를 안 친다"): the negation takes the thing along, as "does not
    read a book" does, so that a thing that names a motion (책, a book: reading) is not done either."""
    out: dict[int, int] = {}
    for index, piece in enumerate(pieces):
        if not (piece.negated and piece.word is not None and piece.word.kind == "verb"):
            continue
        before = next((i for i in range(index - 1, -1, -1)
                       if pieces[i].written.strip() and not pieces[i].dropped), None)
        thing = pieces[before].word if before is not None else None
        if before is not None and thing is not None and thing.kind == "noun" \
                and pieces[before].rest in _OBJECT_PARTICLES:
            out[index] = before
    return out


def _inside(pieces: list[_Piece], index: int) -> bool:
    """Whether ``pieces[index]`` (안) is the inside of the noun just before it ("집 안 청소", the
    cleaning in the house), not a negation ("안 달리기", no running)."""
    before = next((p for p in reversed(pieces[:index]) if p.written.strip()), None)
    return before is not None and before.word is not None and before.word.kind == "noun" and not before.rest \
        and pieces[index].written == "안"


_FROM_PARTICLES = ("에서부터", "에서", "부터")
_TO_PARTICLES = frozenset({"까지", "로", "으로", "쪽으로", "에", "까지는"})
_PLACE_WRITTEN = frozenset(word.written for word in PLACE_WORDS)


def _way(pieces: list[_Piece]) -> dict[int, str]:
    """A way from one place to another ("학교에서 공원까지", from the school to the park): the
    pieces of the two places -> the English word put before each ("from", "to"), so that the
    English reader draws the turn where it goes, as it does "from the school to the park".
    Empty when the text names no such way (에서 alone is where: "공원에서 달린다")."""
    def place(piece: _Piece) -> bool:
        return piece.word is not None and piece.word.kind == "noun" and piece.word.written in _PLACE_WRITTEN
    start = next((i for i, piece in enumerate(pieces) if place(piece) and piece.rest.startswith(_FROM_PARTICLES)),
                 None)
    if start is None:
        return {}
    end = next((i for i in range(start + 1, len(pieces)) if place(pieces[i]) and pieces[i].rest in _TO_PARTICLES),
               None)
    return {} if end is None else {start: "from", end: "to"}


def _carry(pieces: list[_Piece]) -> None:
    """Read the verb that carries a motion's noun (:data:`CARRIED_BY`) as a word of :data:`DO_WORDS`."""
    before = ""
    for piece in pieces:
        word = piece.word
        if word is not None and word.kind == "verb" and CARRIED_BY.get(before) == word.written:
            piece.word = KoreanWord(word.written, "", "do")
        if piece.word is not None or piece.name or piece.written.strip() not in ("", *_NEGATORS):
            before = piece.word.written if piece.word is not None else ""


def in_english_words(text: str, table: Mapping[str, tuple[tuple[KoreanWord, str], ...]] = TEXT_TABLE,
                     names: Iterable[str] = ()) -> str:
    """``text`` with the Korean words of ``table`` put into their English words ("밤에 공원에서
    달린다" -> "night park run"); ``names`` kept as written, without their particles. A motion
    said not to be done is read "not run," (a negation ends at the comma). A text with no Korean
    word of ours nor name comes back as it is."""
    if not has_hangul(text):
        return text
    written = tuple(sorted({n for n in names if n and has_hangul(n)}, key=len, reverse=True))
    pieces = _pieces(text, table, written)
    if table is TEXT_TABLE:
        _instruments_played(pieces)
    _negate(pieces)
    way = _way(pieces)
    objects = _objects_not_done(pieces)
    out: list[str] = []
    meanwhile: list[str] = []  # what is done while the motion is ("울면서"): said after it
    found = False
    for index, piece in enumerate(pieces):
        word = piece.word
        if index in way:
            out.append(f" {way[index]} ")
        if piece.dropped:
            found = found or piece.glued
            out.append(" " if piece.glued else "")
            continue
        if index in objects.values():
            found = True
            continue  # said with the verb not done: "책을 읽지 않는다", "not read book,"
        if piece.name:
            out.append(f" {piece.name} ")
            found = True
        elif word is None or word.kind == "other":
            out.append(piece.written)
        elif word.kind == "do":
            found = True
        elif word.kind in ("verb", "action") and not piece.negated and piece.rest.startswith(("면서", "으면서")):
            meanwhile.append(f" while {word.english} ")  # "울면서 집에 갔다": the going is shown, the crying is how
            found = True
        else:
            thing = pieces[objects[index]].word if index in objects else None
            done_to = f" {thing.english}" if thing is not None else ""
            out.append(f" not {word.english}{done_to}, " if piece.negated else f" {word.english} ")
            found = True
    return re.sub(r" {2,}", " ", "".join(out + meanwhile)).strip() if found else text


_FIELD_TABLES: dict[str, Mapping[str, tuple[tuple[KoreanWord, str], ...]]] = {
    "motion": TEXT_TABLE, "free_text": TEXT_TABLE, "background": PLACE_TABLE, "time_of_day": TIME_TABLE,
    "camera": CAMERA_TABLE, "adverb": ADVERB_TABLE,
}
"""Which words each field of an instruction is read with (the Character field is a name: never read)."""


def _as_read(value: str) -> str:
    """One field as its Korean words are looked up: NFKC-normalised where it holds Hangul (letters
    typed apart, ᄃ ᅡ ᆯ, made into syllables; full-width letters as plain ones)."""
    return unicodedata.normalize("NFKC", value) if has_hangul(value) else value


def is_korean(instr: Instruction, names: Iterable[str] = ()) -> bool:
    """Whether ``instr`` is read as Korean: a field the sketch engine reads (not the Character
    field, a name) holds Hangul besides the ``names`` in it, and the turn holds no kana (a
    Japanese turn may name a Korean character)."""
    if any("\u3040" <= ch <= "\u30ff" for ch in instr.raw):
        return False
    kept = sorted((n for n in names if n and has_hangul(n)), key=len, reverse=True)
    for field_name in FIELDS:
        value = _as_read(getattr(instr, field_name))
        for name in kept:
            value = value.replace(name, " ")
        if has_hangul(value):
            return True
    return False


_PLACE_OF_ACTION = ("에서는", "에서도", "에서")
"""Particles that make the word before them where the motion is done ("한강에서 달린다")."""
_HERE = frozenset({"여기", "거기", "저기", "어디", "이곳", "그곳", "저곳", "곳", "어딘가"})
"""Words for a place that name none ("여기에서", here)."""


def unknown_places(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words free ``text`` gives as where its motion is done (before 에서) that are no word
    of ours nor one of ``names`` ("한강에서 달린다" -> ['한강']), in order: the places the engine
    says it does not know, as for "runs in Mordor"."""
    kept = tuple(sorted({n for n in names if n and has_hangul(n)}, key=len, reverse=True))
    found: list[str] = []
    pieces = _pieces(_as_read(text), TEXT_TABLE, kept)
    for index, piece in enumerate(pieces):
        if piece.glued:
            found += _latin_place(pieces, index)
            continue
        if piece.word is not None or piece.name or not piece.written or not is_syllable(piece.written[0]):
            continue
        for particle in _PLACE_OF_ACTION:
            stem = piece.written.removesuffix(particle)
            if stem != piece.written and stem and stem not in _HERE:
                found.append(stem)
                break
    return list(dict.fromkeys(found))


_LATIN_WORDS = re.compile(r"[A-Za-z][\w'-]*(?:[ \t]+[A-Za-z][\w'-]*){0,2}$")
"""Up to three words of Latin letters at the end of a text ("Central Park" of "민수가 Central Park")."""


def _latin_place(pieces: list[_Piece], index: int) -> list[str]:
    """The words of other letters ``pieces[index]`` (particles glued onto them) gives as where the
    motion is done, before 에서 ("Mordor에서" -> ['Mordor']); none before any other particle."""
    if index == 0 or not pieces[index].written.startswith(_PLACE_OF_ACTION):
        return []
    words = _LATIN_WORDS.search(pieces[index - 1].written)
    return [words.group()] if words is not None and words.group().casefold() not in _LATIN_HERE else []


_LATIN_HERE = frozenset({"here", "there", "somewhere", "it"})
"""English words for a place that name none."""


def negations_as_written(instr: Instruction, names: Iterable[str] = ()) -> dict[str, str]:
    """Each motion ``instr``'s fields say is not done, as :func:`in_english` reads it ("not run")
    -> as written ("달리지 않는다"): a warning that quotes the one, quotes the other."""
    names = tuple(sorted({n for n in names if n and has_hangul(n)}, key=len, reverse=True))
    out: dict[str, str] = {}
    for field_name in FIELDS:
        table = _FIELD_TABLES[field_name]
        pieces = _pieces(_as_read(getattr(instr, field_name)), table, names)
        if table is TEXT_TABLE:
            _instruments_played(pieces)
        _negate(pieces)
        for piece in pieces:
            if piece.negated and piece.word is not None and piece.said:
                out.setdefault(f"not {piece.word.english}", piece.said)
    return out


def in_english(instr: Instruction, names: Iterable[str] = ()) -> Instruction:
    """``instr`` with the Korean words of its fields put into English (:func:`in_english_words`),
    ``names`` kept as written; the same instruction when it has no Korean word of ours. Give it
    the instruction as read (each field held to its limit as written), as for
    :func:`~studio.engines.sketch.chinese.in_english`."""
    return fields_in_english(instr, names, _FIELD_TABLES, _as_read, in_english_words)
